#include "pipelines/autoviz/requirements.hpp"

#include <nlohmann/json.hpp>

#include "pipelines/autoviz/json_fields.hpp"

namespace planfirst::autoviz {
namespace {

core::Result<Constraint> constraint_from_json(const core::Json& json, const std::string& where) {
  if (!json.is_object() || !json.contains("type") || !json["type"].is_string()) {
    return core::invalid_argument("a constraint needs a 'type' of filter, sort or limit", where);
  }
  Constraint constraint;
  constraint.type = json["type"].get<std::string>();
  if (constraint.type == "filter") {
    if (core::Result<void> shape = check_object(json, where, {"type", "column", "op", "value"}); !shape)
      return shape.error();
    core::Result<ParamValue> value = ParamValue::from_json(json["value"], where + "/value");
    if (!value) return value.error();
    constraint.value = std::move(*value);
    core::Result<std::string> op = string_field(json, "op", where);
    if (!op) return op.error();
    constraint.op = std::move(*op);
  } else if (constraint.type == "sort") {
    if (core::Result<void> shape = check_object(json, where, {"type", "column", "direction"}); !shape)
      return shape.error();
    core::Result<std::string> direction = string_field(json, "direction", where);
    if (!direction) return direction.error();
    constraint.direction = std::move(*direction);
  } else if (constraint.type == "limit") {
    if (core::Result<void> shape = check_object(json, where, {"type", "n"}); !shape) return shape.error();
    if (!json["n"].is_number_integer() || json["n"].get<std::int64_t>() < 1) {
      return core::invalid_argument("'n' must be an integer of at least 1", where + "/n");
    }
    constraint.n = json["n"].get<std::int64_t>();
    return constraint;
  } else {
    return core::invalid_argument("unknown constraint type '" + constraint.type + "'", where + "/type");
  }
  core::Result<std::string> column = string_field(json, "column", where);
  if (!column) return column.error();
  constraint.column = std::move(*column);
  return constraint;
}

core::Json constraint_to_json(const Constraint& constraint) {
  core::Json json = {{"type", constraint.type}};
  if (constraint.type == "limit") {
    json["n"] = constraint.n;
    return json;
  }
  json["column"] = constraint.column;
  if (constraint.type == "filter") {
    json["op"] = constraint.op;
    json["value"] = constraint.value.to_json();
  } else {
    json["direction"] = constraint.direction;
  }
  return json;
}

}  // namespace

core::Result<Requirements> Requirements::from_json(const core::Json& json) {
  const std::string root;
  if (core::Result<void> shape =
          check_object(json, root, {"metrics", "group_by", "time", "analysis", "outputs", "constraints"});
      !shape) {
    return shape.error();
  }
  Requirements requirements;
  for (auto [key, target] :
       {std::pair{"metrics", &requirements.metrics}, std::pair{"group_by", &requirements.group_by},
        std::pair{"analysis", &requirements.analysis}, std::pair{"outputs", &requirements.outputs}}) {
    core::Result<std::vector<std::string>> list = string_list_field(json, key, root);
    if (!list) return list.error();
    *target = std::move(*list);
  }

  const core::Json& time = json["time"];
  if (core::Result<void> shape = check_object(time, "/time", {"column", "grain"}); !shape)
    return shape.error();
  core::Result<std::optional<std::string>> column = nullable_string_field(time, "column", "/time");
  if (!column) return column.error();
  requirements.time.column = std::move(*column);
  core::Result<std::string> grain = string_field(time, "grain", "/time");
  if (!grain) return grain.error();
  requirements.time.grain = std::move(*grain);

  const core::Json& constraints = json["constraints"];
  if (!constraints.is_array())
    return core::invalid_argument("expected a list of constraints", "/constraints");
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    core::Result<Constraint> constraint =
        constraint_from_json(constraints[i], "/constraints/" + std::to_string(i));
    if (!constraint) return constraint.error();
    requirements.constraints.push_back(std::move(*constraint));
  }
  return requirements;
}

core::Json Requirements::to_json() const {
  core::Json constraint_list = core::Json::array();
  for (const Constraint& constraint : constraints) constraint_list.push_back(constraint_to_json(constraint));
  return {{"metrics", metrics},
          {"group_by", group_by},
          {"time",
           {{"column", time.column ? core::Json(*time.column) : core::Json(nullptr)}, {"grain", time.grain}}},
          {"analysis", analysis},
          {"outputs", outputs},
          {"constraints", std::move(constraint_list)}};
}

}  // namespace planfirst::autoviz
