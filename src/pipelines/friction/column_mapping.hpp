// map_columns reads a contacts table's schema profile and maps each role of the friction analysis
// (contact id, timestamp, channel, reason, summary, handle time, transfers, repeat flag, resolution)
// to one of its columns by name (FrictionRules), never by one dataset's spelling; overrides name a
// column for a role outright. A required role that maps to nothing is an input error naming every
// missing role, the names looked for and the table's columns. Pure and deterministic.
#pragma once

#include <map>
#include <string>

#include "core/json.hpp"
#include "core/result.hpp"
#include "data/schema_profile.hpp"
#include "pipelines/friction/friction_rules.hpp"

namespace planfirst::friction {

struct ColumnMapping {
  std::map<std::string, std::string> columns;  // role -> column name, mapped roles only
  std::string handle_time_unit;                // "seconds" or "minutes"
  std::string handle_time_unit_reason;         // "the column's name says seconds"

  const std::string* column(const std::string& role) const;  // nullptr when unmapped
  core::Json to_json() const;  // {"columns": {...}, "handle_time_unit", "handle_time_unit_reason"}
  static core::Result<ColumnMapping> from_json(const core::Json& json);  // kInvalidArgument naming the field
};

// Lower case, every run of characters outside [a-z0-9] as one '_', trimmed: "Handle Time (s)" ->
// "handle_time_s".
std::string normalize_column_name(std::string_view name);

// `overrides`: role -> column, each checked against the profile (kInvalidArgument naming an unknown
// role or column). `median_handle_time`: the handle-time column's median, used for the unit when its
// name does not say (above 90: seconds).
core::Result<ColumnMapping> map_columns(const data::SchemaProfile& profile, const FrictionRules& rules,
                                        const std::map<std::string, std::string>& overrides);
void choose_handle_time_unit(ColumnMapping& mapping, const FrictionRules& rules, double median_handle_time);

}  // namespace planfirst::friction
