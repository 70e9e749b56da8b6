#include "pipelines/autoviz/understand/extraction/numbers.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ascii_case.hpp"
#include "core/calendar.hpp"
#include "core/date_parse.hpp"
#include "core/join.hpp"
#include "core/similarity.hpp"
#include "core/stemmer.hpp"
#include "core/timestamp.hpp"
#include "core/tokenizer.hpp"
#include "core/wordnet_synonyms.hpp"
#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/row_count.hpp"
#include "pipelines/autoviz/understand/abbreviated_value.hpp"
#include "pipelines/autoviz/understand/extraction/column_pass.hpp"
#include "pipelines/autoviz/understand/extraction/comparison_pass.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/label_pass.hpp"
#include "pipelines/autoviz/understand/extraction/period_pass.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/ranking_pass.hpp"
#include "pipelines/autoviz/understand/extraction/refusal_pass.hpp"
#include "pipelines/autoviz/understand/extraction/role_pass.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/extraction/value_pass.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz::extraction {

namespace {

// Whole numbers in [kFirstYear, kPastLastYear) a column's bounds spell are years ("1997").
constexpr double kFirstYear = 1000;
constexpr double kPastLastYear = 3000;

}  // namespace

std::optional<std::int64_t> number_after(const Question& q, std::size_t at) {
  if (at >= q.tokens.size()) return std::nullopt;
  const std::string& token = q.tokens[at];
  std::int64_t n = 0;
  const char* end = token.data() + token.size();
  if (token.empty() || token.front() == '-') return std::nullopt;
  if (auto [ptr, ec] = std::from_chars(token.data(), end, n); ec == std::errc() && ptr == end) return n;
  return std::nullopt;
}

double scalar_number(const ParamScalar& value) {
  if (const auto* whole = std::get_if<std::int64_t>(&value)) return static_cast<double>(*whole);
  const auto* real = std::get_if<double>(&value);
  return real != nullptr ? *real : 0;
}

namespace {

// A number the profile wrote as text (a column's min or max); nothing for other text.
std::optional<double> profiled_number(const std::optional<std::string>& text) {
  double n = 0;
  if (!text) return std::nullopt;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (error != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return n;
}

}  // namespace

bool within_range(const data::ColumnProfile& column, double value) {
  const std::optional<double> low = profiled_number(column.min), high = profiled_number(column.max);
  return low && high && *low <= value && value <= *high;
}

namespace {

// A number as the question writes it at a token: its value, the tokens it takes (a scale word
// after it included: "1 million") and that word's multiplier (1 without one).
struct NumberRead {
  ParamScalar value;
  std::size_t tokens = 1;
  std::int64_t scale = 1;
};

// "99.5" is the double 99.5 over two tokens, "99" the integer 99 over one, "1 million" 1 over two
// with the scale 1000000; nothing at other words.
std::optional<NumberRead> number_read_at(const Question& q, std::size_t at) {
  const std::optional<std::int64_t> whole = number_after(q, at);
  if (!whole) return std::nullopt;
  NumberRead read{ParamScalar{*whole}};
  if (at + 1 < q.tokens.size() && at < q.point_after.size() && q.point_after[at]) {
    double value = 0;
    const std::string text = q.tokens[at] + "." + q.tokens[at + 1];
    if (auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value); ec == std::errc())
      read = {ParamScalar{value}, 2};
  }
  if (const std::size_t next = at + read.tokens; next < q.scale.size() && q.scale[next] != 0) {
    read.scale = q.scale[next];
    ++read.tokens;
  }
  return read;
}

// `number` times `scale`; a whole product stays an integer.
ParamScalar times(const ParamScalar& number, std::int64_t scale) {
  if (scale == 1) return number;
  const double product = scalar_number(number) * static_cast<double>(scale);
  const bool whole = product == std::floor(product) && std::abs(product) < 9e18;
  return whole ? ParamScalar{static_cast<std::int64_t>(product)} : ParamScalar{product};
}

}  // namespace

std::optional<std::pair<ParamScalar, std::size_t>> number_value_at(const Question& q, std::size_t at) {
  const std::optional<NumberRead> read = number_read_at(q, at);
  if (!read) return std::nullopt;
  return std::pair{times(read->value, read->scale), read->tokens};
}

std::optional<std::pair<ParamScalar, std::size_t>> number_for_column(const Question& q, std::size_t at,
                                                                     const data::ColumnProfile& column) {
  const std::optional<NumberRead> read = number_read_at(q, at);
  if (!read) return std::nullopt;
  const ParamScalar scaled = times(read->value, read->scale);
  if (read->scale == 1) return std::pair{scaled, read->tokens};
  const Stems name = stems_of(column_words(column.name));
  const bool named = std::find(name.begin(), name.end(), q.stems[at + read->tokens - 1]) != name.end();
  const bool plain = named || (!within_range(column, scalar_number(scaled)) &&
                               within_range(column, scalar_number(read->value)));
  return std::pair{plain ? read->value : scaled, read->tokens};
}

std::optional<std::string> date_after(const Question& q, std::size_t at) {
  const std::optional<std::int64_t> year = number_after(q, at), month = number_after(q, at + 1),
                                    day = number_after(q, at + 2);
  if (!year || !month || !day || q.tokens[at].size() != 4 || *month < 1 || *month > 12 || *day < 1 ||
      *day > 31) {
    return std::nullopt;
  }
  char text[16];
  std::snprintf(text, sizeof text, "%04lld-%02lld-%02lld", static_cast<long long>(*year),
                static_cast<long long>(*month), static_cast<long long>(*day));
  return std::string(text);
}

namespace {

// The year a column's min or max spells: a number from 1000 to 2999 ("1997", "1997.0").
std::optional<int> year_number(const std::optional<std::string>& text) {
  const std::optional<double> n = profiled_number(text);
  if (!n || *n < kFirstYear || *n >= kPastLastYear) return std::nullopt;
  return static_cast<int>(*n);
}

}  // namespace

std::optional<std::pair<int, int>> integer_years(const data::ColumnProfile& column) {
  const std::optional<int> first = year_number(column.min), last = year_number(column.max);
  if (column.type != data::ColumnType::kInteger || !first || !last) return std::nullopt;
  return std::pair{*first, *last};
}

namespace {

// The year `column` spans, first and last, when it holds years or dates.
std::optional<std::pair<int, int>> years_spanned(const data::ColumnProfile& column) {
  if (std::optional<std::pair<int, int>> years = integer_years(column)) return years;
  const bool dated =
      data::is_temporal(column.type) || column.role == data::ColumnRole::kTemporal;  // "May 26, 1986" too
  if (!dated || !column.span) return std::nullopt;
  const auto year_of = [](const std::string& date) -> std::optional<int> {  // "2024-03-01..." -> 2024
    int year = 0;
    if (date.size() < 4 || std::from_chars(date.data(), date.data() + 4, year).ptr != date.data() + 4) {
      return std::nullopt;
    }
    return year;
  };
  const std::optional<int> first = year_of(column.span->first), last = year_of(column.span->last);
  if (!first || !last) return std::nullopt;
  return std::pair{*first, *last};
}

}  // namespace

const data::ColumnProfile* column_of_year(const std::vector<const data::ColumnProfile*>& columns,
                                          std::optional<std::int64_t> year) {
  const data::ColumnProfile* first = nullptr;
  for (const data::ColumnProfile* column : columns) {
    const std::optional<std::pair<int, int>> span = years_spanned(*column);
    if (!span) continue;
    if (!year || (span->first <= *year && *year <= span->second)) return column;
    if (first == nullptr) first = column;
  }
  return first;
}

bool is_comparable(const data::ColumnProfile& column) {
  return column.role == data::ColumnRole::kMeasure || column.role == data::ColumnRole::kTemporal ||
         data::is_numeric(column.type);
}

bool holds_years(const data::ColumnProfile& column) {
  return years_spanned(column) ||
         (data::is_numeric(column.type) && year_number(column.min) && year_number(column.max));
}

}  // namespace planfirst::autoviz::extraction
