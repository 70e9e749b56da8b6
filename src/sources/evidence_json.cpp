#include "sources/evidence_json.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "core/json_member.hpp"

namespace planfirst::sources {
namespace {

// `object[key]` as text: absent or null reads as "", anything but a string is refused.
core::Result<std::string> text_member(const core::Json& object, const char* key, const std::string& pointer) {
  const core::Json& value = core::member_or_null(object, key);
  if (value.is_null()) return std::string();
  if (!value.is_string()) {
    return core::invalid_argument("expected a string, not " + std::string(value.type_name()),
                                  pointer + "/" + key);
  }
  return value.get<std::string>();
}

}  // namespace

core::Json to_json(const EvidenceItem& item) {
  core::Json fields = core::Json::object();
  for (const auto& [name, value] : item.fields) fields[name] = value;
  core::Json json{{"source", item.source},
                  {"id", item.id},
                  {"title", item.title},
                  {"snippet", item.snippet},
                  {"fields", std::move(fields)},
                  {"provenance",
                   {{"source", item.provenance.source},
                    {"locator", item.provenance.locator},
                    {"query", item.provenance.query},
                    {"fetched_at", item.provenance.fetched_at}}}};
  if (item.score) json["score"] = *item.score;
  return json;
}

core::Result<EvidenceItem> evidence_from_json(const core::Json& json, const std::string& pointer) {
  if (!json.is_object()) return core::invalid_argument("an item must be an object", pointer);
  EvidenceItem item;
  for (auto [field, key] : {std::pair{&item.source, "source"},
                            {&item.id, "id"},
                            {&item.title, "title"},
                            {&item.snippet, "snippet"}}) {
    core::Result<std::string> text = text_member(json, key, pointer);
    if (!text) return text.error();
    *field = std::move(*text);
  }
  const core::Json& fields = core::member_or_null(json, "fields");
  if (fields.is_object()) {
    for (const auto& [name, value] : fields.items()) {
      item.fields.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  const core::Json& score = core::member_or_null(json, "score");
  if (score.is_number()) item.score = score.get<double>();
  const core::Json& provenance = core::member_or_null(json, "provenance");
  for (auto [field, key] : {std::pair{&item.provenance.source, "source"},
                            {&item.provenance.locator, "locator"},
                            {&item.provenance.query, "query"},
                            {&item.provenance.fetched_at, "fetched_at"}}) {
    core::Result<std::string> text = text_member(provenance, key, pointer + "/provenance");
    if (!text) return text.error();
    *field = std::move(*text);
  }
  return item;
}

}  // namespace planfirst::sources
