#include "pipelines/autoviz/tools/tool_table_text.hpp"

#include "pipelines/autoviz/tools/tool_relation.hpp"

namespace planfirst::autoviz {
namespace {

std::string csv_field(const data::Value& value) {
  if (value.is_null()) return {};
  const std::string text = value.to_string();
  const bool quote = text.find_first_of(",\"\r\n") != std::string::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string markdown_cell(const data::Value& value) {
  if (value.is_null()) return {};
  std::string cell;
  for (char c : value.to_string()) {
    if (c == '|')
      cell += "\\|";
    else if (c == '\n' || c == '\r')
      cell += ' ';
    else
      cell += c;
  }
  return cell;
}

std::string markdown_row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells) row += " " + cell + " |";
  return row + "\n";
}

}  // namespace

std::string table_to_csv(const data::QueryResult& table) {
  std::string text;
  for (std::size_t c = 0; c < table.column_count(); ++c) {
    text += (c == 0 ? "" : ",") + csv_field(data::Value(table.column(c).name));
  }
  text += "\n";
  for (std::size_t r = 0; r < table.row_count(); ++r) {
    for (std::size_t c = 0; c < table.column_count(); ++c)
      text += (c == 0 ? "" : ",") + csv_field(table.at(r, c));
    text += "\n";
  }
  return text;
}

std::string table_to_markdown(const data::QueryResult& table) {
  std::vector<std::string> header;
  std::vector<std::string> rule;
  for (const data::Column& column : table.columns()) {
    header.push_back(markdown_cell(data::Value(column.name)));
    rule.push_back(is_numeric(column.type) ? "---:" : "---");
  }
  std::string text = markdown_row(header) + markdown_row(rule);
  for (std::size_t r = 0; r < table.row_count(); ++r) {
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < table.column_count(); ++c) cells.push_back(markdown_cell(table.at(r, c)));
    text += markdown_row(cells);
  }
  return text;
}

}  // namespace planfirst::autoviz
