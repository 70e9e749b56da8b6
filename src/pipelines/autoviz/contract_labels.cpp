#include "pipelines/autoviz/contract_labels.hpp"

#include <nlohmann/json.hpp>

#include "core/json.hpp"

namespace planfirst::autoviz {

core::Result<std::vector<std::string>> contract_labels(const core::AssetStore& assets,
                                                       std::string_view contract_path,
                                                       std::string_view pointer) {
  core::Result<std::string> text = assets.read(contract_path);
  if (!text) return text.error();
  const std::string where = assets.origin(contract_path) + "#" + std::string(pointer) + "/enum";
  const core::Json schema = core::Json::parse(*text, nullptr, /*allow_exceptions=*/false);
  const core::Json::json_pointer at(std::string(pointer) + "/enum");
  if (schema.is_discarded() || !schema.contains(at) || !schema[at].is_array()) {
    return core::invalid_argument("no label list in the contract", where);
  }
  std::vector<std::string> labels;
  for (const core::Json& label : schema[at]) {
    if (!label.is_string()) return core::invalid_argument("a label is not a string", where);
    labels.push_back(label.get<std::string>());
  }
  return labels;
}

}  // namespace planfirst::autoviz
