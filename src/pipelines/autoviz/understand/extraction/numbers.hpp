// The numbers, dates and years the requirement passes read: a question's whole numbers and
// decimals at a token ("99.5" is two tokens, "1 million" a number and its scale), its YYYY-MM-DD
// dates, and the years and bounds a column holds. Pure functions of their arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data/schema_profile.hpp"
#include "pipelines/autoviz/param_value.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"

namespace planfirst::autoviz::extraction {

// The whole number token `at` spells; nothing for other words or one past int64's range.
std::optional<std::int64_t> number_after(const Question& q, std::size_t at);

// The number a filter value holds, as a double; 0 for one that holds no number.
double scalar_number(const ParamScalar& value);

// Whether `value` lies within the values `column` holds, by its min and max.
bool within_range(const data::ColumnProfile& column, double value);

// The number at token `at` as a filter value, scaled, and how many tokens it takes.
std::optional<std::pair<ParamScalar, std::size_t>> number_value_at(const Question& q, std::size_t at);

// The number at token `at` as a value of `column`: a scale word after it ("50 million") multiplies
// it, unless the column's name holds that word (Damage_millions_USD) or only the plain number lies
// within the column's values (Total_Passengers from 20 to 95: "more than 50 million" is 50).
std::optional<std::pair<ParamScalar, std::size_t>> number_for_column(const Question& q, std::size_t at,
                                                                     const data::ColumnProfile& column);

// The date tokens `at`.. spell ("2002-06-21" tokenizes as 2002, 06, 21) as YYYY-MM-DD; nothing
// for other words.
std::optional<std::string> date_after(const Question& q, std::size_t at);

// The years a column of whole numbers 1000..2999 holds, first and last; nullopt for any other.
std::optional<std::pair<int, int>> integer_years(const data::ColumnProfile& column);

// The first of `columns` holding years that spans `year`, else the first holding years at all (any
// one when `year` is nullopt): a year the data does not reach still filters, keeps no row, and the
// run says so rather than answering over every year. nullptr when none holds years.
const data::ColumnProfile* column_of_year(const std::vector<const data::ColumnProfile*>& columns,
                                          std::optional<std::int64_t> year);

// Whether `column` may be compared with a number or a date: a measure, a temporal column or numbers.
bool is_comparable(const data::ColumnProfile& column);

// Whether `column` holds years: dates, or numbers from 1000 to 2999 (Year_Opened as 1997.0 too).
bool holds_years(const data::ColumnProfile& column);

}  // namespace planfirst::autoviz::extraction
