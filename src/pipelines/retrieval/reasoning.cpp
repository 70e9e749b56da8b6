#include "pipelines/retrieval/reasoning.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_member.hpp"
#include "pipelines/retrieval/json_read.hpp"
#include "pipelines/retrieval/retrieval_plan.hpp"

namespace planfirst::retrieval {
namespace {

using core::member_or_null;

core::Result<Intent> intent_from_json(const core::Json& json, const std::string& pointer) {
  if (!json.is_object()) return core::invalid_argument("an intent must be an object", pointer);
  core::Result<std::string> type = read_string(member_or_null(json, "type"), pointer + "/type");
  if (!type) return type.error();
  if (type->empty()) return core::invalid_argument("an intent needs a non-empty \"type\"", pointer + "/type");
  const core::Json& confidence = member_or_null(json, "confidence");
  if (!confidence.is_number() || !std::isfinite(confidence.get<double>()) || confidence.get<double>() < 0.0 ||
      confidence.get<double>() > 1.0) {
    return core::invalid_argument("\"confidence\" must be a number from 0 to 1", pointer + "/confidence");
  }
  return Intent{std::move(*type), confidence.get<double>()};
}

core::Result<Hypothesis> hypothesis_from_json(const core::Json& json, const std::string& pointer) {
  if (!json.is_object()) return core::invalid_argument("a hypothesis must be an object", pointer);
  Hypothesis hypothesis;
  core::Result<std::string> id = read_string(member_or_null(json, "id"), pointer + "/id");
  if (!id) return id.error();
  core::Result<std::string> description =
      read_string(member_or_null(json, "description"), pointer + "/description");
  if (!description) return description.error();
  core::Result<std::vector<std::string>> dependencies =
      read_strings(member_or_null(json, "dependencies"), pointer + "/dependencies");
  if (!dependencies) return dependencies.error();
  return Hypothesis{std::move(*id), std::move(*description), std::move(*dependencies)};
}

core::Result<double> score_from_json(const core::Json& json, const std::string& pointer) {
  if (json.is_null()) return 0.0;
  if (!json.is_number()) return core::invalid_argument("expected a number", pointer);
  return json.get<double>();
}

// The member of `entities` (const or not) that holds the filter `name`.
template <typename Owner>
auto* entity_values(Owner& entities, std::string_view name) {
  decltype(&entities.projects) none = nullptr;
  if (name == "projects") return &entities.projects;
  if (name == "dates") return &entities.dates;
  if (name == "statuses") return &entities.statuses;
  if (name == "providers") return &entities.providers;
  if (name == "assignees") return &entities.assignees;
  if (name == "authors") return &entities.authors;
  return none;
}

}  // namespace

const std::vector<std::string>* Entities::values(std::string_view name) const {
  return entity_values(*this, name);
}
std::vector<std::string>* Entities::values(std::string_view name) {
  return entity_values(*this, name);
}

core::Json to_json(const Intent& intent) {
  return core::Json{{"type", intent.type}, {"confidence", intent.confidence}};
}

core::Json to_json(const Hypothesis& hypothesis) {
  return core::Json{{"id", hypothesis.id},
                    {"description", hypothesis.description},
                    {"dependencies", hypothesis.dependencies}};
}

core::Json to_json(const Entities& entities) {
  core::Json json = core::Json::object();
  for (std::string_view name : kFilterOrder) json[std::string(name)] = *entities.values(name);
  return json;
}

core::Json to_json(const Reasoning& reasoning) {
  core::Json intents = core::Json::array();
  for (const Intent& intent : reasoning.intents) intents.push_back(to_json(intent));
  core::Json hypotheses = core::Json::array();
  for (const Hypothesis& hypothesis : reasoning.hypotheses) hypotheses.push_back(to_json(hypothesis));
  return core::Json{{"intents", std::move(intents)},
                    {"primary_score", reasoning.primary_score},
                    {"overall_score", reasoning.overall_score},
                    {"hypotheses", std::move(hypotheses)},
                    {"entities", to_json(reasoning.entities)}};
}

core::Result<Reasoning> reasoning_from_json(const core::Json& json, std::string_view pointer) {
  const std::string at(pointer);
  Reasoning reasoning;
  if (json.is_null()) return reasoning;
  if (!json.is_object()) return core::invalid_argument("\"reasoning\" must be an object", at);
  core::Result<std::vector<Intent>> intents =
      read_list<Intent>(member_or_null(json, "intents"), at + "/intents", intent_from_json);
  if (!intents) return intents.error();
  core::Result<std::vector<Hypothesis>> hypotheses =
      read_list<Hypothesis>(member_or_null(json, "hypotheses"), at + "/hypotheses", hypothesis_from_json);
  if (!hypotheses) return hypotheses.error();
  reasoning.intents = std::move(*intents);
  reasoning.hypotheses = std::move(*hypotheses);
  core::Result<double> primary =
      score_from_json(member_or_null(json, "primary_score"), at + "/primary_score");
  if (!primary) return primary.error();
  core::Result<double> overall =
      score_from_json(member_or_null(json, "overall_score"), at + "/overall_score");
  if (!overall) return overall.error();
  reasoning.primary_score = *primary;
  reasoning.overall_score = *overall;
  const core::Json& entities = member_or_null(json, "entities");
  if (!entities.is_null() && !entities.is_object()) {
    return core::invalid_argument("\"entities\" must be an object", at + "/entities");
  }
  for (std::string_view name : kFilterOrder) {
    const std::string key(name);
    core::Result<std::vector<std::string>> values =
        read_strings(member_or_null(entities, key), at + "/entities/" + key);
    if (!values) return values.error();
    *reasoning.entities.values(name) = std::move(*values);
  }
  return reasoning;
}

}  // namespace planfirst::retrieval
