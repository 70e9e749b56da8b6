#include "pipelines/autoviz/report/display_table.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/number_text.hpp"

namespace planfirst::autoviz {
namespace {

// Characters of UTF-8 text: its bytes that do not continue a sequence.
std::size_t characters(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// `text` cut to `limit` characters, ending in "..." when cut; never inside a UTF-8 sequence.
std::string cut(const std::string& text, std::size_t limit) {
  if (characters(text) <= limit) return text;
  std::size_t kept = 0;
  std::size_t end = 0;
  while (end < text.size()) {
    if ((static_cast<unsigned char>(text[end]) & 0xC0) != 0x80 && kept++ == limit - 3) break;
    ++end;
  }
  return text.substr(0, end) + "...";
}

// A cell on one line: line breaks and tabs as spaces.
std::string one_line(const std::string& text) {
  std::string line = text;
  std::replace_if(
      line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return line;
}

std::string padded(const std::string& text, std::size_t width, bool right) {
  const std::size_t fill = width - std::min(width, characters(text));
  return right ? std::string(fill, ' ') + text : text + std::string(fill, ' ');
}

std::string markdown_cell(const std::string& text) {
  std::string cell;
  for (char c : one_line(text)) cell += c == '|' ? std::string("\\|") : std::string(1, c);
  return cell;
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells) row += " " + markdown_cell(cell) + " |";
  return row + "\n";
}

// Decimals after the point of a number as shown: "6,412,381.6" -> 1, "25" -> 0.
std::size_t decimals(const std::string& cell) {
  const std::size_t point = cell.find('.');
  return point == std::string::npos ? 0 : cell.size() - point - 1;
}

// Column `c` with the same decimals in every cell, up to two ("6,412,381.60" beside "4,432,266.48"),
// so the points line up; a cell with more (a small number to three significant digits) keeps them.
void align_decimals(std::vector<std::vector<std::string>>& rows, std::size_t c) {
  std::size_t wanted = 0;
  for (const std::vector<std::string>& row : rows) {
    const std::string& cell = row[c];
    if (!cell.empty() && std::isdigit(static_cast<unsigned char>(cell.back())))
      wanted = std::max(wanted, std::min<std::size_t>(decimals(cell), 2));
  }
  for (std::vector<std::string>& row : rows) {
    std::string& cell = row[c];
    if (cell.empty() || !std::isdigit(static_cast<unsigned char>(cell.back()))) continue;  // NULL, nan, inf
    const std::size_t has = decimals(cell);
    if (has >= wanted) continue;
    cell += (has == 0 ? "." : "") + std::string(wanted - has, '0');
  }
}

}  // namespace

std::string display_cell(const data::Value& value, double group_from) {
  switch (value.kind()) {
    case data::Value::Kind::kNull: return {};
    case data::Value::Kind::kInt: return core::format_integer(value.as_int(), group_from);
    case data::Value::Kind::kDouble: return core::format_number(value.as_double(), group_from);
    default: return value.to_string();
  }
}

DisplayTable DisplayTable::of(const data::QueryResult& table, std::size_t max_rows) {
  DisplayTable display;
  for (const data::Column& column : table.columns()) {
    display.header.push_back(column.name);
    display.numeric.push_back(data::is_numeric(column.type));
  }
  const std::size_t shown = std::min(max_rows, table.row_count());
  std::vector<double> group_from(table.column_count(), kGroupTable);
  for (std::size_t c = 0; c < table.column_count(); ++c) {  // "6,190" beside "12,390", not "6190"
    for (std::size_t r = 0; r < shown; ++r) {
      const data::Value& value = table.at(r, c);
      const double magnitude = value.kind() == data::Value::Kind::kInt      ? std::abs(double(value.as_int()))
                               : value.kind() == data::Value::Kind::kDouble ? std::abs(value.as_double())
                                                                            : 0;
      if (magnitude >= kGroupTable) group_from[c] = kGroupSentence;
    }
  }
  for (std::size_t r = 0; r < shown; ++r) {
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < table.column_count(); ++c)
      cells.push_back(display_cell(table.at(r, c), group_from[c]));
    display.rows.push_back(std::move(cells));
  }
  for (std::size_t c = 0; c < table.column_count(); ++c) {
    if (table.column(c).type == data::ColumnType::kDouble) align_decimals(display.rows, c);
  }
  return display;
}

std::string DisplayTable::to_text(const std::string& indent) const {
  std::vector<std::vector<std::string>> lines = {header};
  for (const std::vector<std::string>& row : rows) lines.push_back(row);
  std::vector<std::size_t> widths(header.size(), 0);
  for (std::vector<std::string>& line : lines) {
    for (std::size_t c = 0; c < line.size() && c < widths.size(); ++c) {
      line[c] = cut(one_line(line[c]), kMaxTextCell);
      widths[c] = std::max(widths[c], characters(line[c]));
    }
  }
  std::string text;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::string out = indent;
    for (std::size_t c = 0; c < lines[l].size() && c < widths.size(); ++c) {
      if (c > 0) out += "  ";
      out += padded(lines[l][c], widths[c], numeric[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    text += out + "\n";
    if (l == 0) {
      std::string rule = indent;
      for (std::size_t c = 0; c < widths.size(); ++c)
        rule += (c > 0 ? "  " : "") + std::string(widths[c], '-');
      text += rule + "\n";
    }
  }
  return text;
}

std::string DisplayTable::to_markdown() const {
  std::vector<std::string> rule;
  for (bool right : numeric) rule.push_back(right ? "---:" : "---");
  std::string text = markdown_row(header);
  text += "|";
  for (const std::string& cell : rule) text += " " + cell + " |";
  text += "\n";
  for (const std::vector<std::string>& row : rows) text += markdown_row(row);
  return text;
}

}  // namespace planfirst::autoviz
