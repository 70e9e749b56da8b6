#include "pipelines/analyst/analyst_plan.hpp"

#include <nlohmann/json.hpp>

#include "pipelines/analyst/source_policy.hpp"

namespace planfirst::analyst {
namespace {

core::Result<std::string> text_at(const core::Json& json, const char* key) {
  if (!json.contains(key) || !json[key].is_string())
    return core::invalid_argument("expected a string", std::string("/") + key);
  return json[key].get<std::string>();
}

core::Result<std::vector<std::string>> texts_at(const core::Json& json, const char* key) {
  const std::string where = std::string("/") + key;
  if (!json.contains(key) || !json[key].is_array())
    return core::invalid_argument("expected a list of strings", where);
  std::vector<std::string> texts;
  for (const core::Json& item : json[key]) {
    if (!item.is_string()) return core::invalid_argument("expected a string, got " + item.dump(), where);
    texts.push_back(item.get<std::string>());
  }
  return texts;
}

}  // namespace

core::Json to_json(const AnalystPlan& plan) {
  return core::Json{{"intent", plan.intent},
                    {"request_type", to_string(plan.request_type)},
                    {"track", to_string(plan.track)},
                    {"required_sources", plan.required_sources},
                    {"missing_info_questions", plan.missing_info_questions},
                    {"expected_output_schema", plan.expected_output_schema}};
}

core::Result<AnalystPlan> plan_from_json(const core::Json& json) {
  if (!json.is_object()) return core::invalid_argument("an analyst plan must be an object", "");
  AnalystPlan plan;
  core::Result<std::string> intent = text_at(json, "intent");
  if (!intent) return intent.error();
  plan.intent = std::move(*intent);
  core::Result<std::string> type = text_at(json, "request_type");
  if (!type) return type.error();
  std::optional<RequestType> parsed_type = parse_request_type(*type);
  if (!parsed_type) return core::invalid_argument("unknown request type \"" + *type + "\"", "/request_type");
  plan.request_type = *parsed_type;
  core::Result<std::string> track = text_at(json, "track");
  if (!track) return track.error();
  std::optional<Track> parsed_track = parse_track(*track);
  if (!parsed_track) return core::invalid_argument("unknown track \"" + *track + "\"", "/track");
  plan.track = *parsed_track;
  core::Result<std::vector<std::string>> sources = texts_at(json, "required_sources");
  if (!sources) return sources.error();
  plan.required_sources = std::move(*sources);
  core::Result<std::vector<std::string>> questions = texts_at(json, "missing_info_questions");
  if (!questions) return questions.error();
  plan.missing_info_questions = std::move(*questions);
  core::Result<std::string> schema = text_at(json, "expected_output_schema");
  if (!schema) return schema.error();
  plan.expected_output_schema = std::move(*schema);
  return plan;
}

AnalystPlan fallback_plan(RequestType router_type) {
  AnalystPlan plan;
  plan.intent = "parse_error";
  plan.request_type = router_type;
  plan.track = Track::kQuality;
  plan.required_sources = enforce_sources(router_type, {"policy"}).sources;
  plan.missing_info_questions = {};
  plan.expected_output_schema = "answer_v1_markdown";
  return plan;
}

}  // namespace planfirst::analyst
