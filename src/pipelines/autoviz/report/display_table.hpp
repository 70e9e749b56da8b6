// DisplayTable is a result table as a person reads it in the terminal or a report: the first rows,
// every number rounded for display (core/number_text.hpp), NULL as an empty cell, numeric columns marked for
// right alignment. Full precision stays in the step's CSV. Pure: same table, same text, byte for byte.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data/query_result.hpp"

namespace planfirst::autoviz {

// Digits are grouped by thousands from this magnitude on in tables (so years and short codes stay
// "2024"), and from kGroupSentence on in a sentence ("7,726 rows").
inline constexpr double kGroupTable = 10000;
inline constexpr double kGroupSentence = 1000;

// A cell as shown: numbers by core::format_number and format_integer, digits grouped from
// `group_from` on, NULL as "", anything else as Value::to_string.
std::string display_cell(const data::Value& value, double group_from = kGroupTable);

struct DisplayTable {
  std::vector<std::string> header;
  std::vector<bool> numeric;  // per column: right-aligned
  std::vector<std::vector<std::string>> rows;

  // The first `max_rows` rows of `table`, every cell as display_cell shows it (a column holding
  // a number from kGroupTable on groups all its numbers from kGroupSentence on), the cells of a
  // column of doubles padded to the same decimals (up to two) so their points line up.
  static DisplayTable of(const data::QueryResult& table, std::size_t max_rows);
  // Columns padded to their widest cell (at most kMaxTextCell characters, longer ones cut with
  // "..."), a rule under the header, each line indented by `indent`.
  std::string to_text(const std::string& indent) const;
  // A Markdown table: numbers right-aligned, '|' escaped, line breaks as spaces.
  std::string to_markdown() const;

  static constexpr std::size_t kMaxTextCell = 40;
};

}  // namespace planfirst::autoviz
