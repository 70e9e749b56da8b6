#include "pipelines/friction/column_mapping.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/join.hpp"

namespace planfirst::friction {
namespace {

std::vector<std::string> words(std::string_view normalized) {
  std::vector<std::string> out;
  std::stringstream stream{std::string(normalized)};
  for (std::string word; std::getline(stream, word, '_');) {
    if (!word.empty()) out.push_back(word);
  }
  return out;
}

bool holds_words(const std::vector<std::string>& column_words, const std::vector<std::string>& wanted) {
  return !wanted.empty() && std::all_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
    return std::find(column_words.begin(), column_words.end(), w) != column_words.end();
  });
}

// The first free column whose normalized name equals one of the role's names, else holds all of
// one's words (names tried in order).
const data::ColumnProfile* find_by_name(const data::SchemaProfile& profile, const ColumnRole& role,
                                        const std::set<std::string>& taken) {
  for (bool exact : {true, false}) {
    for (const std::string& name : role.names) {
      const std::string wanted = normalize_column_name(name);
      for (const data::ColumnProfile& column : profile.columns) {
        if (taken.count(column.name) != 0) continue;
        const std::string have = normalize_column_name(column.name);
        if (exact ? have == wanted : holds_words(words(have), words(wanted))) return &column;
      }
    }
  }
  return nullptr;
}

const data::ColumnProfile* only_free_text(const data::SchemaProfile& profile,
                                          const std::set<std::string>& taken) {
  const data::ColumnProfile* found = nullptr;
  for (const data::ColumnProfile& column : profile.columns) {
    if (taken.count(column.name) != 0 || column.role != data::ColumnRole::kText) continue;
    if (found != nullptr) return nullptr;
    found = &column;
  }
  return found;
}

std::string missing_line(const ColumnRole& role) {
  return role.title + " (looked for " + core::join(role.names) + ")";
}

}  // namespace

const std::string* ColumnMapping::column(const std::string& role) const {
  auto it = columns.find(role);
  return it == columns.end() ? nullptr : &it->second;
}

core::Json ColumnMapping::to_json() const {
  core::Json json{{"columns", core::Json::object()},
                  {"handle_time_unit", handle_time_unit},
                  {"handle_time_unit_reason", handle_time_unit_reason}};
  for (const auto& [role, column] : columns) json["columns"][role] = column;
  return json;
}

core::Result<ColumnMapping> ColumnMapping::from_json(const core::Json& json) {
  if (!json.is_object() || !json.contains("columns") || !json["columns"].is_object()) {
    return core::invalid_argument("expected an object \"columns\"", "/dataset/mapping/columns");
  }
  ColumnMapping mapping;
  for (const auto& [role, column] : json["columns"].items()) {
    if (!column.is_string())
      return core::invalid_argument("not a string", "/dataset/mapping/columns/" + role);
    mapping.columns[role] = column.get<std::string>();
  }
  mapping.handle_time_unit = json.value("handle_time_unit", "seconds");
  mapping.handle_time_unit_reason = json.value("handle_time_unit_reason", "");
  return mapping;
}

std::string normalize_column_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0) {
      out += static_cast<char>(std::tolower(u));
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

core::Result<ColumnMapping> map_columns(const data::SchemaProfile& profile, const FrictionRules& rules,
                                        const std::map<std::string, std::string>& overrides) {
  ColumnMapping mapping;
  std::set<std::string> taken;
  for (const auto& [role, column] : overrides) {
    if (rules.role(role) == nullptr) {
      std::vector<std::string> known;
      for (const ColumnRole& r : rules.roles) known.push_back(r.role);
      return core::invalid_argument("unknown role \"" + role + "\"; the roles are " + core::join(known),
                                    "columns");
    }
    if (profile.find(column) == nullptr) {
      std::vector<std::string> names;
      for (const data::ColumnProfile& c : profile.columns) names.push_back(c.name);
      return core::invalid_argument("column \"" + column + "\" for " + role +
                                        " is not in the data; its columns are " + core::join(names),
                                    "columns/" + role);
    }
    mapping.columns[role] = column;
    taken.insert(column);
  }
  for (const ColumnRole& role : rules.roles) {
    if (mapping.columns.count(role.role) != 0) continue;
    const data::ColumnProfile* found = find_by_name(profile, role, taken);
    if (found == nullptr && role.free_text) found = only_free_text(profile, taken);
    if (found == nullptr) continue;
    mapping.columns[role.role] = found->name;
    taken.insert(found->name);
  }
  std::vector<std::string> missing;
  for (const ColumnRole& role : rules.roles) {
    if (role.required && mapping.columns.count(role.role) == 0) missing.push_back(missing_line(role));
  }
  for (const std::vector<std::string>& group : rules.one_of) {
    const bool any = std::any_of(group.begin(), group.end(),
                                 [&](const std::string& r) { return mapping.columns.count(r) != 0; });
    if (any) continue;
    std::vector<std::string> titles;
    for (const std::string& r : group)
      titles.push_back(rules.role(r) != nullptr ? missing_line(*rules.role(r)) : r);
    missing.push_back("one of: " + core::join(titles, " or "));
  }
  if (!missing.empty()) {
    std::vector<std::string> names;
    for (const data::ColumnProfile& c : profile.columns) names.push_back(c.name);
    return core::invalid_argument("the data has no column for the required " +
                                      std::string(missing.size() == 1 ? "field " : "fields ") +
                                      core::join(missing, "; ") + ". Its columns are: " + core::join(names) +
                                      ". Name a column for a field with --map FIELD=COLUMN.",
                                  profile.table);
  }
  return mapping;
}

void choose_handle_time_unit(ColumnMapping& mapping, const FrictionRules& rules, double median_handle_time) {
  const std::string* column = mapping.column("handle_time");
  const std::vector<std::string> name_words =
      column == nullptr ? std::vector<std::string>{} : words(normalize_column_name(*column));
  auto says = [&](const std::vector<std::string>& unit_words) {
    return std::any_of(name_words.begin(), name_words.end(), [&](const std::string& w) {
      return std::find(unit_words.begin(), unit_words.end(), w) != unit_words.end();
    });
  };
  if (says(rules.seconds_words)) {
    mapping.handle_time_unit = "seconds";
    mapping.handle_time_unit_reason = "the column's name says seconds";
  } else if (says(rules.minutes_words)) {
    mapping.handle_time_unit = "minutes";
    mapping.handle_time_unit_reason = "the column's name says minutes";
  } else if (median_handle_time > 90) {
    mapping.handle_time_unit = "seconds";
    mapping.handle_time_unit_reason = "its median is above 90, so seconds";
  } else {
    mapping.handle_time_unit = "minutes";
    mapping.handle_time_unit_reason = "its median is 90 or less, so minutes";
  }
}

}  // namespace planfirst::friction
