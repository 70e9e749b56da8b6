#include "pipelines/autoviz/strategy_record.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::autoviz {

core::Json StrategyRecord::to_json(std::string_view stage) const {
  core::Json json{{"stage", stage}, {"strategy", strategy}, {"model", model}, {"attempts", attempts}};
  if (!fallback.empty()) json["fallback"] = fallback;
  if (unreachable) json["unreachable"] = true;
  return json;
}

std::string StrategyRecord::describe() const {
  if (strategy == "llm") {
    return "llm (" + model + ", " + std::to_string(attempts) + (attempts == 1 ? " call)" : " calls)");
  }
  if (!asked_model()) return "rules";
  // The failure's summary and its first cause: "contract intent: model_error after 1 attempt: cannot connect
  // ..."
  const std::size_t first = fallback.find('\n');
  std::string why = fallback.substr(0, first);
  if (first != std::string::npos)
    why += ": " + fallback.substr(first + 1, fallback.find('\n', first + 1) - first - 1);
  return "rules (llm " + model + " gave up: " + why + ")";
}

}  // namespace planfirst::autoviz
