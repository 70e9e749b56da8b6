#include "llm/llama_server/llama_fixture.hpp"

#include <stdexcept>

#include "core/asset_store.hpp"

namespace planfirst::llm {
namespace {

contracts::ContractRegistry load_contracts() {
  core::Result<contracts::ContractRegistry> loaded = contracts::ContractRegistry::load(core::AssetStore());
  if (!loaded) throw std::runtime_error(loaded.error().describe());
  return std::move(*loaded);
}

}  // namespace

LlamaFixture::LlamaFixture() : contracts_(load_contracts()) {
  server_ = test_support::LlamaServer::shared(&failure_);
}

const LlamaFixture& LlamaFixture::get() {
  static const LlamaFixture fixture;
  return fixture;
}

OpenAiModelOptions LlamaFixture::options(StructuredOutput mode) const {
  OpenAiModelOptions o;
  o.base_url = server_->base_url();
  o.structured_output = mode;
  o.timeout = std::chrono::seconds(120);  // two shared cores: slow, never hung
  o.http.max_retries = 0;
  return o;
}

OpenAiCompatibleModel LlamaFixture::model(StructuredOutput mode) const {
  return model(options(mode));
}

OpenAiCompatibleModel LlamaFixture::model(OpenAiModelOptions options) const {
  core::Result<OpenAiCompatibleModel> made = OpenAiCompatibleModel::create(std::move(options), contracts_);
  if (!made) throw std::runtime_error(made.error().describe());
  return std::move(*made);
}

std::vector<std::string> shipped_contract_names() {
  return load_contracts().names();
}

}  // namespace planfirst::llm
