#include "data/schema_profile.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace planfirst::data {
namespace {

constexpr std::size_t kMaxCellWidth = 32;
constexpr std::size_t kMaxSampleWidth = 60;

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// Cuts `text` to `width` bytes (on a UTF-8 character boundary), marking the cut with "...".
std::string clipped(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  std::size_t end = width - 3;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "...";
}

// Display width of UTF-8 text: one per code point.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '\r', ' ');
  std::replace(text.begin(), text.end(), '\t', ' ');
  return text;
}

core::Json optional_text(const std::optional<std::string>& text) {
  return text ? core::Json(*text) : core::Json(nullptr);
}

}  // namespace

const ColumnProfile* SchemaProfile::find(std::string_view name) const {
  for (const ColumnProfile& column : columns) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

core::Json SchemaProfile::to_json() const {
  core::Json json_columns = core::Json::array();
  for (const ColumnProfile& column : columns) {
    core::Json entry = {{"name", column.name},
                        {"sql_type", column.sql_type},
                        {"type", std::string(to_string(column.type))},
                        {"role", std::string(to_string(column.role))},
                        {"null_count", column.null_count},
                        {"null_rate", column.null_rate},
                        {"distinct_count", column.distinct_count},
                        {"min", optional_text(column.min)},
                        {"max", optional_text(column.max)},
                        {"samples", column.samples}};
    if (column.span) {
      entry["span"] = {{"first", column.span->first},
                       {"last", column.span->last},
                       {"days", column.span->days},
                       {"days_with_data", column.span->days_with_data},
                       {"rows_per_day", column.span->rows_per_day},
                       {"coverage", column.span->coverage}};
    }
    json_columns.push_back(std::move(entry));
  }
  return {{"version", kSchemaProfileVersion},
          {"table", table},
          {"row_count", row_count},
          {"columns", json_columns}};
}

std::string SchemaProfile::to_table() const {
  const std::vector<std::string> headings{"column",   "type", "role", "nulls",
                                          "distinct", "min",  "max",  "top values"};
  std::vector<std::vector<std::string>> rows;
  for (const ColumnProfile& column : columns) {
    std::string samples;
    for (const std::string& sample : column.samples)
      samples += (samples.empty() ? "" : ", ") + one_line(sample);
    rows.push_back(
        {clipped(column.name, kMaxCellWidth), clipped(column.sql_type, kMaxCellWidth),
         std::string(to_string(column.role)), fixed(column.null_rate * 100.0, 1) + "%",
         std::to_string(column.distinct_count), clipped(one_line(column.min.value_or("")), kMaxCellWidth),
         clipped(one_line(column.max.value_or("")), kMaxCellWidth), clipped(samples, kMaxSampleWidth)});
  }
  std::vector<std::size_t> widths(headings.size());
  for (std::size_t i = 0; i < headings.size(); ++i) {
    widths[i] = display_width(headings[i]);
    for (const auto& row : rows) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  const std::vector<bool> right_aligned{false, false, false, true, true, false, false, false};
  auto render = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string pad(widths[i] - display_width(cells[i]), ' ');
      if (i + 1 == cells.size()) {
        line += cells[i];
      } else {
        line += right_aligned[i] ? pad + cells[i] : cells[i] + pad;
        line += "  ";
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };

  std::string text = "table " + table + ": " + std::to_string(row_count) + " rows, " +
                     std::to_string(columns.size()) + " columns\n\n";
  text += render(headings);
  for (const auto& row : rows) text += render(row);
  bool first_span = true;
  for (const ColumnProfile& column : columns) {
    if (!column.span) continue;
    if (first_span) text += "\ntemporal spans\n";
    first_span = false;
    const TemporalSpan& span = *column.span;
    text += "  " + column.name + ": " + span.first + " .. " + span.last + ", " + std::to_string(span.days) +
            " days, " + fixed(span.rows_per_day, 2) + " rows/day, values on " +
            std::to_string(span.days_with_data) + " days (" + fixed(span.coverage * 100.0, 1) +
            "% of the span)\n";
  }
  return text;
}

}  // namespace planfirst::data
