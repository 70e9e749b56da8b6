#include "embed/embedder_from_config.hpp"

#include "embed/hashed_embedder.hpp"
#include "embed/openai_compatible_embedder.hpp"

namespace planfirst::embed {

core::Result<std::unique_ptr<Embedder>> embedder_from_config(const core::Config& config,
                                                             const core::Environment& env,
                                                             core::MetricsRegistry* metrics) {
  const std::string& base_url = config.get_string("embed.base_url");
  if (base_url.empty()) return std::unique_ptr<Embedder>(std::make_unique<HashedEmbedder>());
  OpenAiEmbedderOptions options;
  options.base_url = base_url;
  options.model = config.get_string("embed.model");
  options.api_key = config.variable_named_by("embed.api_key_env", env);
  options.metrics = metrics;
  core::Result<std::unique_ptr<OpenAiCompatibleEmbedder>> embedder =
      OpenAiCompatibleEmbedder::create(options);
  if (!embedder) return embedder.error();
  return std::unique_ptr<Embedder>(std::move(*embedder));
}

}  // namespace planfirst::embed
