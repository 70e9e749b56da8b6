#include "sources/youtrack_response.hpp"

#include <chrono>
#include <nlohmann/json.hpp>

#include "core/join.hpp"
#include "core/timestamp.hpp"
#include "sources/field_counts.hpp"
#include "sources/response_record.hpp"
#include "sources/snippet.hpp"

namespace planfirst::sources {
namespace {

// YouTrack times are milliseconds since 1970; beyond 2200 they would overflow the clock's nanoseconds.
constexpr std::int64_t kLatestMillis = 7'258'118'400'000;

std::string time_text(ResponseRecord& record, std::string_view path, std::optional<std::int64_t> millis) {
  if (!millis) return "";
  if (*millis < 0 || *millis >= kLatestMillis) {
    record.fail(path, "milliseconds since 1970 before the year 2200");
    return "";
  }
  return core::format_utc_timestamp(
      std::chrono::system_clock::time_point(std::chrono::milliseconds(*millis)));
}

// A custom field's value as text: an enum or state ({name}), a user ({login}), several (joined by ","),
// a string or number; "" for null.
std::optional<std::string> value_text(const core::Json& value) {
  if (value.is_null()) return std::string();
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return value.dump();
  if (value.is_object()) {
    for (const char* key : {"name", "login", "text", "presentation"}) {
      const auto it = value.find(key);
      if (it != value.end() && it->is_string()) return it->get<std::string>();
    }
    return std::string();
  }
  if (value.is_array()) {
    std::vector<std::string> parts;
    for (const core::Json& element : value) {
      if (element.is_array()) return std::nullopt;
      std::optional<std::string> part = value_text(element);
      if (!part) return std::nullopt;
      parts.push_back(std::move(*part));
    }
    return core::join(parts, ",");
  }
  return std::nullopt;
}

// The custom fields' values by field name.
std::vector<std::pair<std::string, std::string>> custom_fields(ResponseRecord& record) {
  std::vector<std::pair<std::string, std::string>> out;
  const core::Json* fields = record.find("customFields");
  if (fields == nullptr) return out;
  if (!fields->is_array()) {
    record.fail("customFields", "an array of {name, value} objects");
    return out;
  }
  for (const core::Json& field : *fields) {
    const auto name = field.is_object() ? field.find("name") : field.end();
    if (!field.is_object() || name == field.end() || !name->is_string()) {
      record.fail("customFields", "an array of {name, value} objects");
      return out;
    }
    const auto value = field.find("value");
    std::optional<std::string> text = value == field.end() ? std::string() : value_text(*value);
    if (!text) {
      record.fail("customFields",
                  "custom field values that are null, text, numbers, {name}, {login} or lists");
      return out;
    }
    out.emplace_back(name->get<std::string>(), std::move(*text));
  }
  return out;
}

core::Result<EvidenceItem> issue_item(ResponseRecord& record, std::string_view root_url,
                                      const ResponseOrigin& origin, std::string_view state_field) {
  const std::string id = record.text("idReadable");
  const std::string summary = record.optional_text("summary");
  const std::string description = record.optional_text("description");
  const std::int64_t created_ms = record.integer("created");
  const std::string created = time_text(record, "created", created_ms);
  const std::string updated = time_text(record, "updated", record.optional_integer("updated"));
  const std::string resolved = time_text(record, "resolved", record.optional_integer("resolved"));
  std::string project = record.optional_text("project.shortName");
  const std::string reporter = record.optional_text("reporter.login");
  const std::vector<std::pair<std::string, std::string>> custom = custom_fields(record);
  if (id.empty()) record.fail("idReadable", "a non-empty issue id");
  if (auto status = record.status(); !status) return status.error();

  if (project.empty()) project = id.substr(0, id.rfind('-') == std::string::npos ? 0 : id.rfind('-'));
  EvidenceItem item;
  item.source = std::string(kYouTrackSourceName);
  item.id = "youtrack:" + id;
  item.title = summary;
  item.snippet = snippet_of(description);
  item.fields = {{"project", project},
                 {"state", field_value(custom, state_field)},
                 {"priority", field_value(custom, "Priority")},
                 {"type", field_value(custom, "Type")},
                 {"assignee", field_value(custom, "Assignee")},
                 {"reporter", reporter},
                 {"created_at", created},
                 {"updated_at", updated},
                 {"resolved_at", resolved},
                 {"created_ms", std::to_string(created_ms)},
                 {"web_url", std::string(root_url) + "/issue/" + id}};
  item.provenance = origin.provenance(item.source);
  return item;
}

}  // namespace

core::Result<std::vector<EvidenceItem>> parse_youtrack_issues(std::string_view body,
                                                              std::string_view root_url,
                                                              const ResponseOrigin& origin,
                                                              std::string_view state_field) {
  return parse_records(body, origin.url, [&](ResponseRecord& record) {
    return issue_item(record, root_url, origin, state_field);
  });
}

}  // namespace planfirst::sources
