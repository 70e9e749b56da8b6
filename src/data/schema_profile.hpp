// SchemaProfile describes a table for planning: per column its type, role, null rate, distinct
// count, range, most frequent values and, for temporal columns, span and density. A value type;
// to_json() and to_table() are deterministic (same profile, same bytes), so profiles compare.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "data/query_result.hpp"
#include "data/role_inference.hpp"
#include "data/temporal_span.hpp"

namespace planfirst::data {

inline constexpr int kSchemaProfileVersion = 2;  // "version" in to_json(); bump when keys change

struct ColumnProfile {
  std::string name;
  std::string sql_type;  // the engine's type name
  ColumnType type = ColumnType::kOther;
  ColumnRole role = ColumnRole::kText;
  std::int64_t null_count = 0;
  double null_rate = 0;  // null_count / rows, rounded to 4 decimals
  std::int64_t distinct_count = 0;
  std::optional<std::string> min;  // as text; temporal text columns: the earliest parsed value
  std::optional<std::string> max;
  std::vector<std::string> samples;  // up to 5 most frequent values, ties in ascending value order
  // Text columns with at most kValueListSize distinct values: all of them, in the samples' order
  // (so a question may name a value beyond the samples); empty otherwise.
  std::vector<std::string> values;
  std::optional<TemporalSpan> span;  // temporal columns with at least one value
};

inline constexpr std::int64_t kValueListSize = 50;

struct SchemaProfile {
  std::string table;
  std::int64_t row_count = 0;
  std::vector<ColumnProfile> columns;

  // The column called `name`, or nullptr.
  const ColumnProfile* find(std::string_view name) const;
  // Whether some value of `column` stands in more than one row: a category or a repeating key, not
  // a row label (a profile that counted no distinct values says no).
  bool repeats(const ColumnProfile& column) const;
  // {"version", "table", "row_count", "columns": [{"name", "sql_type", "type", "role", "null_count",
  // "null_rate", "distinct_count", "min", "max", "samples", "values"?, "span"?}]}; keys sorted.
  core::Json to_json() const;
  // The inverse of to_json(): kInvalidArgument naming the field at fault, kFailedPrecondition for a
  // newer "version".
  static core::Result<SchemaProfile> from_json(const core::Json& json);
  // A fixed-width text table for people, one line per column, then one line per temporal span.
  std::string to_table() const;
};

}  // namespace planfirst::data
