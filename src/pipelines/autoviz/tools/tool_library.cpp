#include "pipelines/autoviz/tools/tool_library.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pipelines/autoviz/tools/tool_functions.hpp"

namespace planfirst::autoviz {

const ToolLibrary& ToolLibrary::builtin() {
  static const ToolLibrary library({
      {"load_dataset", {tools::load_dataset, {"path", "format", "table"}}},
      {"infer_schema", {tools::infer_schema, {"sample_rows"}}},
      {"parse_datetime", {tools::parse_datetime, {"column", "format"}}},
      {"cast_types", {tools::cast_types, {"columns", "to_type"}}},
      {"handle_missing", {tools::handle_missing, {"columns", "strategy", "value"}}},
      {"filter_rows", {tools::filter_rows, {"column", "op", "value"}}},
      {"aggregate", {tools::aggregate, {"group_by", "agg_func", "metrics"}}},
      {"segment_metric", {tools::segment_metric, {"segment_by", "metric", "agg_func"}}},
      {"compute_summary_stats", {tools::compute_summary_stats, {"columns", "group_by", "stats"}}},
      {"compute_value_counts", {tools::compute_value_counts, {"column", "normalize", "limit"}}},
      {"compute_percentiles", {tools::compute_percentiles, {"column", "percentiles"}}},
      {"time_bucket", {tools::time_bucket, {"column", "grain"}}},
      {"sort_limit", {tools::sort_limit, {"by", "direction", "limit"}}},
      {"compute_share", {tools::compute_share, {"metric", "group_by"}}},
      {"compare_periods", {tools::compare_periods, {"date_column", "metric", "grain", "group_by"}}},
      {"rolling_average", {tools::rolling_average, {"date_column", "metric", "window"}}},
      {"compute_correlations", {tools::compute_correlations, {"columns", "method"}}},
      {"detect_anomalies", {tools::detect_anomalies, {"column", "method", "threshold", "date_column"}}},
      {"compute_distributions", {tools::compute_distributions, {"columns", "bins"}}},
      {"plot_line", {tools::plot_line, {"x", "y", "color", "facet"}}},
      {"plot_bar", {tools::plot_bar, {"x", "y", "also", "color", "mode"}}},
      {"plot_scatter", {tools::plot_scatter, {"x", "y", "color", "size"}}},
      {"plot_histogram", {tools::plot_histogram, {"column", "bins", "color"}}},
      {"plot_pie", {tools::plot_pie, {"category", "value"}}},
      {"plot_boxplot", {tools::plot_boxplot, {"column", "group_by"}}},
      {"plot_heatmap", {tools::plot_heatmap, {"x", "y", "value"}}},
      {"save_table", {tools::save_table, {"name", "columns"}}},
  });
  return library;
}

std::vector<std::string> ToolLibrary::names() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : tools_) names.push_back(name);
  return names;
}

const std::vector<std::string_view>* ToolLibrary::params(std::string_view tool) const {
  auto it = tools_.find(tool);
  return it == tools_.end() ? nullptr : &it->second.params;
}

core::Result<ToolOutput> ToolLibrary::run(ToolContext& ctx, std::string_view tool,
                                          const core::Json& params) const {
  auto it = tools_.find(tool);
  if (it == tools_.end()) {
    return core::not_found(
        fmt::format("unknown tool '{}'; the library has: {}", tool, fmt::join(names(), ", ")),
        std::string(tool));
  }
  const ToolParams reader(tool, params);
  if (core::Result<void> known = reader.check_names(it->second.params); !known) return known.error();
  return it->second.function(ctx, reader);
}

}  // namespace planfirst::autoviz
