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

bool SchemaProfile::repeats(const ColumnProfile& column) const {
  return column.distinct_count > 0 && column.distinct_count + column.null_count < row_count;
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
    if (!column.values.empty()) entry["values"] = column.values;
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

namespace {

template <typename Enum, std::size_t N>
std::optional<Enum> parse_enum(std::string_view text, const Enum (&values)[N]) {
  for (Enum value : values) {
    if (to_string(value) == text) return value;
  }
  return std::nullopt;
}

std::optional<std::string> text_or_null(const core::Json& value) {
  if (value.is_null()) return std::nullopt;
  return value.get<std::string>();
}

ColumnProfile column_from_json(const core::Json& entry) {  // throws nlohmann::json::exception
  constexpr ColumnType kTypes[] = {ColumnType::kBoolean, ColumnType::kInteger, ColumnType::kDouble,
                                   ColumnType::kText,    ColumnType::kDate,    ColumnType::kTimestamp,
                                   ColumnType::kOther};
  constexpr ColumnRole kRoles[] = {ColumnRole::kTemporal,   ColumnRole::kMeasure, ColumnRole::kCategorical,
                                   ColumnRole::kIdentifier, ColumnRole::kText,    ColumnRole::kBoolean};
  ColumnProfile column;
  column.name = entry.at("name").get<std::string>();
  column.sql_type = entry.at("sql_type").get<std::string>();
  const auto type = parse_enum(entry.at("type").get<std::string>(), kTypes);
  const auto role = parse_enum(entry.at("role").get<std::string>(), kRoles);
  if (!type || !role) throw std::invalid_argument("unknown type or role of column '" + column.name + "'");
  column.type = *type;
  column.role = *role;
  column.null_count = entry.at("null_count").get<std::int64_t>();
  column.null_rate = entry.at("null_rate").get<double>();
  column.distinct_count = entry.at("distinct_count").get<std::int64_t>();
  column.min = text_or_null(entry.at("min"));
  column.max = text_or_null(entry.at("max"));
  column.samples = entry.at("samples").get<std::vector<std::string>>();
  if (entry.contains("values"))
    column.values = entry.at("values").get<std::vector<std::string>>();  // version 2
  if (entry.contains("span")) {
    const core::Json& span = entry.at("span");
    column.span =
        TemporalSpan{span.at("first").get<std::string>(),   span.at("last").get<std::string>(),
                     span.at("days").get<std::int64_t>(),   span.at("days_with_data").get<std::int64_t>(),
                     span.at("rows_per_day").get<double>(), span.at("coverage").get<double>()};
  }
  return column;
}

}  // namespace

core::Result<SchemaProfile> SchemaProfile::from_json(const core::Json& json) {
  try {
    const int version = json.at("version").get<int>();
    if (version > kSchemaProfileVersion) {
      return core::failed_precondition("schema profile version " + std::to_string(version) +
                                       " is newer than this planfirst reads (" +
                                       std::to_string(kSchemaProfileVersion) + ")");
    }
    SchemaProfile profile;
    profile.table = json.at("table").get<std::string>();
    profile.row_count = json.at("row_count").get<std::int64_t>();
    for (const core::Json& entry : json.at("columns")) profile.columns.push_back(column_from_json(entry));
    return profile;
  } catch (const std::exception& e) {
    return core::invalid_argument(std::string("not a schema profile: ") + e.what());
  }
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
