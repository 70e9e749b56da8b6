// The plot tools: each reads the columns it draws from the current relation, in the relation's own
// row order (pie charts total their values per category first), and returns a Vega-Lite v5 spec
// with those rows inline. Charts of one mark per row (scatter, line) past kMaxChartMarks rows draw a
// deterministic sample of kMaxChartMarks rows instead, and say so in the spec's title and the
// output's `sampled`. Charts leave the current relation as it is.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "core/join.hpp"
#include "core/number_text.hpp"
#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"
#include "pipelines/autoviz/tools/tool_vega_lite.hpp"

namespace planfirst::autoviz::tools {
namespace {

// The columns a chart draws: each named by a param, some required to hold numbers.
struct ChartColumns {
  Relation relation;
  std::map<std::string, std::string, std::less<>> by_param;  // param -> column, present ones only
  std::vector<std::string> ordered;                          // distinct columns in param order

  const std::string& operator[](std::string_view param) const { return by_param.find(param)->second; }
  bool has(std::string_view param) const { return by_param.contains(param); }
};

struct ChartParam {
  std::string_view name;
  bool required;
  bool numeric;
};

core::Result<ChartColumns> chart_columns(ToolContext& ctx, const ToolParams& params,
                                         const std::vector<ChartParam>& wanted) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  ChartColumns columns{*relation, {}, {}};
  for (const ChartParam& param : wanted) {
    if (!param.required && !params.has(param.name)) continue;
    core::Result<std::string> column = param.numeric
                                           ? numeric_column_param(ctx, params, *relation, param.name)
                                           : column_param(ctx, params, *relation, param.name);
    if (!column) return column.error();
    columns.by_param[std::string(param.name)] = *column;
    if (std::find(columns.ordered.begin(), columns.ordered.end(), *column) == columns.ordered.end()) {
      columns.ordered.push_back(*column);
    }
  }
  return columns;
}

using RowsToJson = std::function<core::Json(const data::QueryResult&)>;

// What a chart reads: a statement, and whether its rows are a sample of the relation's.
struct ChartRows {
  std::string sql;
  std::optional<ChartSample> sampled;
};

// The title of a sampled chart: "Showing 5,000 of 655,360 points, sampled".
core::Json sample_title(const ChartSample& sample) {
  return {{"text", sample.text()}, {"anchor", "start"}, {"fontSize", 11}, {"fontWeight", "normal"}};
}

// Reads `rows.sql` and wraps its rows in a spec (with `transform`, when not null, and a title saying
// when the rows are a sample); the mark may depend on the rows.
Output chart(ToolContext& ctx, const ToolParams& params, const ChartRows& read, const RowsToJson& mark,
             const RowsToJson& encode, const core::Json& transform = core::Json()) {
  core::Result<data::QueryResult> rows = run_query(ctx, params, read.sql);
  if (!rows) return rows.error();
  ToolOutput output;
  output.sql = read.sql;
  output.sampled = read.sampled;
  output.chart = vega_lite_spec(*rows, mark(*rows), encode(*rows), transform,
                                read.sampled ? sample_title(*read.sampled) : core::Json());
  return output;
}

Output chart(ToolContext& ctx, const ToolParams& params, const std::string& sql, const RowsToJson& mark,
             const RowsToJson& encode, const core::Json& transform = core::Json()) {
  return chart(ctx, params, ChartRows{sql, std::nullopt}, mark, encode, transform);
}

Output chart(ToolContext& ctx, const ToolParams& params, const std::string& sql, const core::Json& mark,
             const RowsToJson& encode, const core::Json& transform = core::Json()) {
  return chart(
      ctx, params, sql, [&mark](const data::QueryResult&) { return mark; }, encode, transform);
}

// Lines mark their points while every series is short enough for the markers to stay apart (a
// 200 px wide panel leaves about 8 px between 25 points); longer series draw the line alone.
constexpr std::size_t kMaxMarkedPoints = 24;

// The point count of the longest series: rows sharing their values in `series_columns`.
std::size_t longest_series(const data::QueryResult& rows, const std::vector<std::string>& series_columns) {
  std::vector<const data::Column*> keys;
  for (const std::string& name : series_columns) keys.push_back(rows.find_column(name));
  std::map<std::vector<std::string>, std::size_t> points;
  std::size_t longest = 0;
  for (std::size_t row = 0; row < rows.row_count(); ++row) {
    std::vector<std::string> key;
    for (const data::Column* column : keys)
      key.push_back(column == nullptr ? "" : column->values[row].to_string());
    longest = std::max(longest, ++points[std::move(key)]);
  }
  return longest;
}

std::string select_columns(const ChartColumns& columns) {
  return fmt::format("SELECT {} FROM {}", quoted_list(columns.ordered),
                     data::quote_identifier(columns.relation.name));
}

// The rows of a chart of one mark per row: all of them while they are at most kMaxChartMarks; past
// it, the kMaxChartMarks rows with the smallest hash of their drawn values and of their copy number
// among equal rows. The sample depends on the rows alone, not on the order the engine reads them in,
// so the same data gives the same chart byte for byte; its rows are ordered by the drawn columns.
core::Result<ChartRows> mark_rows(ToolContext& ctx, const ToolParams& params, const ChartColumns& columns) {
  const std::string relation = data::quote_identifier(columns.relation.name);
  core::Result<data::QueryResult> counted = run_query(ctx, params, "SELECT count(*) FROM " + relation);
  if (!counted) return counted.error();
  const std::int64_t rows = counted->at(0, 0).as_int();
  if (rows <= static_cast<std::int64_t>(kMaxChartMarks))
    return ChartRows{select_columns(columns), std::nullopt};
  const std::string list = quoted_list(columns.ordered);
  std::vector<std::string> positions;  // the inner select's columns by position: its hash is unnamed
  for (std::size_t i = 1; i <= columns.ordered.size(); ++i) positions.push_back(std::to_string(i));
  const std::string sql = fmt::format(
      "SELECT {0} FROM (SELECT {0}, hash({0}, row_number() OVER (PARTITION BY {0})) FROM {1} "
      "ORDER BY {2}, {3} LIMIT {4}) ORDER BY {3}",
      list, relation, columns.ordered.size() + 1, core::join(positions), kMaxChartMarks);
  return ChartRows{sql, ChartSample{kMaxChartMarks, static_cast<std::size_t>(rows)}};
}

// Nominal axes keep the data's order instead of sorting their labels.
core::Json axis_encoding(const data::QueryResult& rows, std::string_view column) {
  core::Json encoding = field_encoding(rows, column);
  if (encoding["type"] == "nominal") encoding["sort"] = nullptr;
  return encoding;
}

core::Json nominal_encoding(const data::QueryResult& rows, std::string_view column) {
  core::Json encoding = field_encoding(rows, column);
  encoding["type"] = "nominal";
  return encoding;
}

}  // namespace

Output plot_line(ToolContext& ctx, const ToolParams& params) {
  core::Result<ChartColumns> columns = chart_columns(
      ctx, params, {{"x", true, false}, {"y", true, true}, {"color", false, false}, {"facet", false, false}});
  if (!columns) return columns.error();
  std::vector<std::string> series;
  for (std::string_view param : {"color", "facet"}) {
    if (columns->has(param)) series.push_back((*columns)[param]);
  }
  const auto mark = [&series](const data::QueryResult& rows) {
    return core::Json{{"type", "line"}, {"point", longest_series(rows, series) <= kMaxMarkedPoints}};
  };
  core::Result<ChartRows> read = mark_rows(ctx, params, *columns);
  if (!read) return read.error();
  return chart(ctx, params, *read, mark, [&](const data::QueryResult& rows) {
    core::Json encoding = {{"x", axis_encoding(rows, (*columns)["x"])},
                           {"y", field_encoding(rows, (*columns)["y"])}};
    if (columns->has("color")) encoding["color"] = nominal_encoding(rows, (*columns)["color"]);
    if (columns->has("facet")) encoding["facet"] = nominal_encoding(rows, (*columns)["facet"]);
    return encoding;
  });
}

Output plot_bar(ToolContext& ctx, const ToolParams& params) {
  core::Result<ChartColumns> columns =
      chart_columns(ctx, params, {{"x", true, false}, {"y", true, true}, {"color", false, false}});
  if (!columns) return columns.error();
  core::Result<std::string> mode = params.choice("mode", {"grouped", "stacked"}, "grouped");
  if (!mode) return mode.error();
  // Other metrics beside y: the rows folded into one bar per metric and x ("metric", "value").
  std::vector<std::string> drawn = {(*columns)["y"]};
  if (params.has("also")) {
    // never empty: an empty list names every numeric column
    core::Result<std::vector<std::string>> also =
        numeric_columns_param(ctx, params, columns->relation, "also");
    if (!also) return also.error();
    if (columns->has("color")) {
      return params.error("also",
                          "bars split by color cannot also draw other metrics; give one or the other");
    }
    for (const std::string& metric : *also) {
      if (std::find(columns->ordered.begin(), columns->ordered.end(), metric) != columns->ordered.end())
        continue;
      columns->ordered.push_back(metric);
      drawn.push_back(metric);
    }
  }
  std::vector<std::string> folded;
  for (const std::string& metric : drawn) folded.push_back(vega_lite_field(metric));
  const core::Json fold =
      folded.size() > 1 ? core::Json::array({{{"fold", folded}, {"as", {"metric", "value"}}}}) : core::Json();
  const auto encode = [&](const data::QueryResult& rows) {
    core::Json encoding = {{"x", axis_encoding(rows, (*columns)["x"])},
                           {"y", field_encoding(rows, (*columns)["y"])}};
    if (folded.size() > 1) {
      encoding["y"] = {{"field", "value"}, {"type", "quantitative"}, {"title", core::join(drawn)}};
      encoding["color"] = {{"field", "metric"}, {"type", "nominal"}};
    } else if (columns->has("color")) {
      encoding["color"] = nominal_encoding(rows, (*columns)["color"]);
    }
    if (encoding.contains("color") && *mode == "grouped") encoding["xOffset"] = encoding["color"];
    if (encoding.contains("color") && *mode == "stacked") encoding["y"]["stack"] = "zero";
    return encoding;
  };
  return chart(ctx, params, select_columns(*columns), {{"type", "bar"}}, encode, fold);
}

Output plot_scatter(ToolContext& ctx, const ToolParams& params) {
  core::Result<ChartColumns> columns = chart_columns(
      ctx, params, {{"x", true, true}, {"y", true, true}, {"color", false, false}, {"size", false, true}});
  if (!columns) return columns.error();
  core::Result<ChartRows> read = mark_rows(ctx, params, *columns);
  if (!read) return read.error();
  const core::Json point = {{"type", "point"}};
  return chart(
      ctx, params, *read, [&point](const data::QueryResult&) { return point; },
      [&](const data::QueryResult& rows) {
        core::Json encoding = {{"x", field_encoding(rows, (*columns)["x"])},
                               {"y", field_encoding(rows, (*columns)["y"])}};
        if (columns->has("color")) encoding["color"] = nominal_encoding(rows, (*columns)["color"]);
        if (columns->has("size")) encoding["size"] = field_encoding(rows, (*columns)["size"]);
        return encoding;
      });
}

Output plot_histogram(ToolContext& ctx, const ToolParams& params) {
  core::Result<ChartColumns> columns =
      chart_columns(ctx, params, {{"column", true, true}, {"color", false, false}});
  if (!columns) return columns.error();
  core::Result<std::int64_t> bins = params.integer("bins", 10, 1);
  if (!bins) return bins.error();
  return chart(ctx, params, select_columns(*columns), {{"type", "bar"}}, [&](const data::QueryResult& rows) {
    core::Json x = field_encoding(rows, (*columns)["column"]);
    x["bin"] = {{"maxbins", *bins}};
    core::Json encoding = {{"x", x}, {"y", {{"aggregate", "count"}, {"type", "quantitative"}}}};
    if (columns->has("color")) encoding["color"] = nominal_encoding(rows, (*columns)["color"]);
    return encoding;
  });
}

Output plot_pie(ToolContext& ctx, const ToolParams& params) {
  core::Result<ChartColumns> columns =
      chart_columns(ctx, params, {{"category", true, false}, {"value", true, true}});
  if (!columns) return columns.error();
  const std::string category = data::quote_identifier((*columns)["category"]);
  const std::string value = data::quote_identifier((*columns)["value"]);
  const std::string sql = fmt::format("SELECT {0}, sum({1}) AS {1} FROM {2} GROUP BY {0} ORDER BY {0}",
                                      category, value, data::quote_identifier(columns->relation.name));
  return chart(ctx, params, sql, {{"type", "arc"}}, [&](const data::QueryResult& rows) {
    return core::Json{{"theta", field_encoding(rows, (*columns)["value"])},
                      {"color", nominal_encoding(rows, (*columns)["category"])}};
  });
}

Output plot_boxplot(ToolContext& ctx, const ToolParams& params) {
  core::Result<ChartColumns> columns =
      chart_columns(ctx, params, {{"column", true, true}, {"group_by", false, false}});
  if (!columns) return columns.error();
  return chart(ctx, params, select_columns(*columns), {{"type", "boxplot"}},
               [&](const data::QueryResult& rows) {
                 core::Json encoding = {{"y", field_encoding(rows, (*columns)["column"])}};
                 if (columns->has("group_by")) encoding["x"] = nominal_encoding(rows, (*columns)["group_by"]);
                 return encoding;
               });
}

Output plot_heatmap(ToolContext& ctx, const ToolParams& params) {
  core::Result<ChartColumns> columns =
      chart_columns(ctx, params, {{"x", true, false}, {"y", true, false}, {"value", true, true}});
  if (!columns) return columns.error();
  return chart(ctx, params, select_columns(*columns), {{"type", "rect"}}, [&](const data::QueryResult& rows) {
    core::Json x = nominal_encoding(rows, (*columns)["x"]);
    core::Json y = nominal_encoding(rows, (*columns)["y"]);
    x["sort"] = nullptr;
    y["sort"] = nullptr;
    return core::Json{{"x", x}, {"y", y}, {"color", field_encoding(rows, (*columns)["value"])}};
  });
}

}  // namespace planfirst::autoviz::tools
