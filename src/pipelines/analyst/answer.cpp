#include "pipelines/analyst/answer.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::analyst {

core::Json to_json(const Answer& answer) {
  core::Json content = answer.text;
  if (answer.format == "json") {
    core::Json parsed = core::Json::parse(answer.text, nullptr, false);
    if (!parsed.is_discarded()) content = std::move(parsed);
  }
  core::Json json{{"schema", answer.schema},
                  {"format", answer.format},
                  {"content", std::move(content)},
                  {"citations", answer.citations},
                  {"strategy", answer.strategy}};
  if (!answer.fallback.empty()) json["fallback"] = answer.fallback;
  return json;
}

}  // namespace planfirst::analyst
