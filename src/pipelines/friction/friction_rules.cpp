#include "pipelines/friction/friction_rules.hpp"

#include <nlohmann/json.hpp>
#include <set>

namespace planfirst::friction {
namespace {

core::Result<std::string> text_at(const core::Json& object, const char* key, const std::string& pointer) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string() ||
      object[key].get<std::string>().empty()) {
    return core::invalid_argument(std::string("expected a non-empty string \"") + key + "\"", pointer);
  }
  return object[key].get<std::string>();
}

core::Result<std::vector<std::string>> texts_at(const core::Json& object, const char* key,
                                                const std::string& pointer, bool required = true) {
  std::vector<std::string> out;
  if (!object.contains(key)) {
    if (required) return core::invalid_argument(std::string("missing list \"") + key + "\"", pointer);
    return out;
  }
  const core::Json& list = object[key];
  if (!list.is_array()) return core::invalid_argument(std::string("\"") + key + "\" is not a list", pointer);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string() || list[i].get<std::string>().empty()) {
      return core::invalid_argument("expected a non-empty string",
                                    pointer + "/" + key + "/" + std::to_string(i));
    }
    out.push_back(list[i].get<std::string>());
  }
  return out;
}

core::Result<std::vector<ColumnRole>> parse_roles(const core::Json& columns) {
  if (!columns.contains("roles") || !columns["roles"].is_array()) {
    return core::invalid_argument("missing list \"roles\"", "/roles");
  }
  std::vector<ColumnRole> roles;
  for (std::size_t i = 0; i < columns["roles"].size(); ++i) {
    const core::Json& entry = columns["roles"][i];
    const std::string pointer = "/roles/" + std::to_string(i);
    ColumnRole role;
    core::Result<std::string> name = text_at(entry, "role", pointer);
    if (!name) return name.error();
    role.role = *name;
    role.title = entry.value("title", role.role);
    role.required = entry.value("required", false);
    role.free_text = entry.value("kind", "") == "text";
    core::Result<std::vector<std::string>> names = texts_at(entry, "names", pointer);
    if (!names) return names.error();
    role.names = std::move(*names);
    roles.push_back(std::move(role));
  }
  return roles;
}

core::Result<Lens> parse_lens(const core::Json& entry, const std::string& pointer) {
  Lens lens;
  for (auto [key, field] : {std::pair{"id", &lens.id}, {"lens", &lens.lens}, {"title", &lens.title}}) {
    core::Result<std::string> text = text_at(entry, key, pointer);
    if (!text) return text.error();
    *field = *text;
  }
  if (!entry.contains("drivers") || !entry["drivers"].is_array() || entry["drivers"].empty()) {
    return core::invalid_argument("expected a non-empty list \"drivers\"", pointer);
  }
  for (std::size_t i = 0; i < entry["drivers"].size(); ++i) {
    const core::Json& d = entry["drivers"][i];
    const std::string at = pointer + "/drivers/" + std::to_string(i);
    DriverRule rule;
    core::Result<std::string> id = text_at(d, "id", at);
    if (!id) return id.error();
    core::Result<std::string> label = text_at(d, "label", at);
    if (!label) return label.error();
    core::Result<std::vector<std::string>> match = texts_at(d, "match", at);
    if (!match) return match.error();
    if (!d.contains("ease") || !d["ease"].is_number_integer() || d["ease"].get<int>() < 1 ||
        d["ease"].get<int>() > 10) {
      return core::invalid_argument("\"ease\" must be an integer from 1 to 10", at + "/ease");
    }
    rule.id = *id;
    rule.label = *label;
    rule.ease = d["ease"].get<int>();
    rule.match = std::move(*match);
    lens.drivers.push_back(std::move(rule));
  }
  return lens;
}

}  // namespace

const ColumnRole* FrictionRules::role(std::string_view name) const {
  for (const ColumnRole& r : roles) {
    if (r.role == name) return &r;
  }
  return nullptr;
}

const Lens* FrictionRules::lens(std::string_view lens_name) const {
  for (const Lens& l : lenses) {
    if (l.lens == lens_name) return &l;
  }
  return nullptr;
}

core::Result<FrictionRules> FrictionRules::parse(const core::Json& columns, const core::Json& lenses) {
  FrictionRules rules;
  core::Result<std::vector<ColumnRole>> roles = parse_roles(columns);
  if (!roles) return roles.error();
  rules.roles = std::move(*roles);
  for (const char* role :
       {"contact_id", "timestamp", "channel", "handle_time", "transfers", "repeat", "resolution"}) {
    if (rules.role(role) == nullptr)
      return core::invalid_argument(std::string("no role \"") + role + "\"", "/roles");
  }
  if (columns.contains("one_of") && columns["one_of"].is_array()) {
    for (const core::Json& group : columns["one_of"]) {
      std::vector<std::string> names;
      for (const core::Json& name : group) names.push_back(name.get<std::string>());
      rules.one_of.push_back(std::move(names));
    }
  }
  struct ListField {
    const char* key;
    std::vector<std::string>* field;
  };
  for (ListField list : {ListField{"true_values", &rules.true_values},
                         {"resolved_values", &rules.resolved_values},
                         {"seconds_words", &rules.seconds_words},
                         {"minutes_words", &rules.minutes_words}}) {
    core::Result<std::vector<std::string>> values = texts_at(columns, list.key, "");
    if (!values) return values.error();
    *list.field = std::move(*values);
  }
  if (!lenses.contains("lenses") || !lenses["lenses"].is_array() || lenses["lenses"].empty()) {
    return core::invalid_argument("expected a non-empty list \"lenses\"", "/lenses");
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < lenses["lenses"].size(); ++i) {
    core::Result<Lens> lens = parse_lens(lenses["lenses"][i], "/lenses/" + std::to_string(i));
    if (!lens) return lens.error();
    for (const DriverRule& d : lens->drivers) {
      if (!ids.insert(d.id).second) {
        return core::invalid_argument("driver id \"" + d.id + "\" appears twice",
                                      "/lenses/" + std::to_string(i));
      }
    }
    rules.lenses.push_back(std::move(*lens));
  }
  return rules;
}

core::Result<FrictionRules> FrictionRules::load(const core::AssetStore& assets) {
  core::Json documents[2];
  const char* paths[2] = {kColumnsAsset, kLensesAsset};
  for (int i = 0; i < 2; ++i) {
    core::Result<std::string> text = assets.read(paths[i]);
    if (!text) return text.error();
    documents[i] = core::Json::parse(*text, nullptr, false);
    if (documents[i].is_discarded()) return core::invalid_argument("not valid JSON", assets.origin(paths[i]));
  }
  core::Result<FrictionRules> rules = parse(documents[0], documents[1]);
  if (!rules) {
    core::Error error = rules.error();
    const bool lenses = error.where.rfind("/lenses", 0) == 0;
    error.where = assets.origin(lenses ? kLensesAsset : kColumnsAsset) + "#" + error.where;
    return error;
  }
  return rules;
}

}  // namespace planfirst::friction
