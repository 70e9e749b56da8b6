// infer_role decides what a column is for, from its name and statistics, the way an analyst would
// read it. Pure and deterministic: same stats, same role. The rules, first match wins:
//
//  1. boolean  - a BOOLEAN column; an integer column whose values are exactly 0 and 1; a text column
//                whose values are all true/false, yes/no, t/f or y/n (any case) with two at most.
//  2. temporal - a DATE or TIMESTAMP column; a text column where at least 95% of the values parse
//                as a date or timestamp; an integer column named like a year (year, yr, *_year)
//                whose values lie in 1800..2200.
//  3. identifier - an integer or text column named like an identifier (a name token id, key,
//                code, uuid, guid, sku, phone, fax, zip, zipcode or postcode, or a trailing
//                number/no/nr: customer_id, CustomerId, order_no, Phone), or categorical when it repeats like
//                one (at most 20 distinct values and fewer distinct values than half its rows: region_code);
//                an integer column of at least 20 rows whose values are unique and consecutive (a row
//                number).
//  4. numbers  - an ordinal-named integer column (rating, score, stars, rank, level, grade, tier,
//                priority, severity, quarter, month, weekday, dow, hour) with at most 12 distinct
//                values is categorical; every other integer or double column is a measure.
//  5. text     - a text (or other) column is free text when its values are long (25 or more
//                characters or 4 or more words on average) and varied (more than 50 distinct
//                values, or distinct values for half its rows or more: notes, comments);
//                otherwise categorical when it repeats (at most 50 distinct values, or fewer than
//                half its rows); otherwise an identifier when it is single tokens that are nearly
//                unique (90% or more distinct: SKUs, hashes); otherwise categorical (names).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "data/query_result.hpp"

namespace planfirst::data {

enum class ColumnRole { kTemporal, kMeasure, kCategorical, kIdentifier, kText, kBoolean };

// "temporal", "measure", "categorical", "identifier", "text", "boolean".
std::string_view to_string(ColumnRole role);

struct ColumnStats {
  std::string name;
  ColumnType type = ColumnType::kOther;
  std::int64_t row_count = 0;
  std::int64_t non_null_count = 0;
  std::int64_t distinct_count = 0;  // of non-null values
  // Integer and double columns only.
  std::optional<double> min_number;
  std::optional<double> max_number;
  // Text and other columns only, over non-null values.
  std::int64_t total_chars = 0;
  std::int64_t total_words = 0;         // whitespace-separated
  std::int64_t date_like_count = 0;     // values that parse as a date or timestamp
  std::int64_t boolean_like_count = 0;  // values spelled true/false/yes/no/t/f/y/n
};

// Bump when a rule changes, so profiles cached under the old rules are computed again.
// 3: dates spelled "March 1, 1963" are temporal; 4: phone, fax and postal numbers are identifiers.
inline constexpr int kRoleInferenceRevision = 4;

ColumnRole infer_role(const ColumnStats& stats);

// Whether `name` reads like a column that may hold years (year, yr, order_year, fiscal_year,
// YearOfSale, or a date such as open_date holding 1830..1844).
bool is_year_name(std::string_view name);

}  // namespace planfirst::data
