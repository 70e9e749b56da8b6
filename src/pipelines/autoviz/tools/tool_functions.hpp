// The autoviz tools, one function each, as ToolLibrary calls them: read the params, build DuckDB
// SQL over the context's current relation, return a table, a chart or files. Grouped by family in
// tool_*.cpp; ToolLibrary is the only caller and the place that names them.
#pragma once

#include "core/result.hpp"
#include "pipelines/autoviz/tools/tool_context.hpp"
#include "pipelines/autoviz/tools/tool_output.hpp"
#include "pipelines/autoviz/tools/tool_params.hpp"

namespace planfirst::autoviz::tools {

using Output = core::Result<ToolOutput>;

Output load_dataset(ToolContext& ctx, const ToolParams& params);  // tool_load.cpp
Output infer_schema(ToolContext& ctx, const ToolParams& params);
Output parse_datetime(ToolContext& ctx, const ToolParams& params);  // tool_clean.cpp
Output cast_types(ToolContext& ctx, const ToolParams& params);
Output handle_missing(ToolContext& ctx, const ToolParams& params);  // tool_missing.cpp
Output filter_rows(ToolContext& ctx, const ToolParams& params);     // tool_filter.cpp
Output aggregate(ToolContext& ctx, const ToolParams& params);       // tool_aggregate.cpp
Output segment_metric(ToolContext& ctx, const ToolParams& params);
Output compute_share(ToolContext& ctx, const ToolParams& params);
Output compute_summary_stats(ToolContext& ctx, const ToolParams& params);  // tool_stats.cpp
Output compute_value_counts(ToolContext& ctx, const ToolParams& params);
Output compute_percentiles(ToolContext& ctx, const ToolParams& params);
Output compute_correlations(ToolContext& ctx, const ToolParams& params);   // tool_correlations.cpp
Output compute_distributions(ToolContext& ctx, const ToolParams& params);  // tool_distributions.cpp
Output time_bucket(ToolContext& ctx, const ToolParams& params);            // tool_time_bucket.cpp
Output compare_periods(ToolContext& ctx, const ToolParams& params);        // tool_periods.cpp
Output rolling_average(ToolContext& ctx, const ToolParams& params);
Output sort_limit(ToolContext& ctx, const ToolParams& params);        // tool_sort_limit.cpp
Output detect_anomalies(ToolContext& ctx, const ToolParams& params);  // tool_anomalies.cpp
Output plot_line(ToolContext& ctx, const ToolParams& params);         // tool_plot.cpp
Output plot_bar(ToolContext& ctx, const ToolParams& params);
Output plot_scatter(ToolContext& ctx, const ToolParams& params);
Output plot_histogram(ToolContext& ctx, const ToolParams& params);
Output plot_pie(ToolContext& ctx, const ToolParams& params);
Output plot_boxplot(ToolContext& ctx, const ToolParams& params);
Output plot_heatmap(ToolContext& ctx, const ToolParams& params);
Output save_table(ToolContext& ctx, const ToolParams& params);  // tool_save_table.cpp

}  // namespace planfirst::autoviz::tools
