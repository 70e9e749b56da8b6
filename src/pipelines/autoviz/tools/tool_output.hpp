// ToolOutput is what one tool run yields: a table (the first ToolContext::max_rows rows of the
// relation it produced, with the SQL that produced it), a chart (a Vega-Lite v5 spec with its data
// inline, as JSON text), files written, or several of these. A value type; move it along.
// A tool that files its rows (save_table) keeps only a preview in `table` and counts them all; a
// chart of one mark per row past kMaxChartMarks draws a sample and says so in `sampled`.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/number_text.hpp"
#include "data/query_result.hpp"

namespace planfirst::autoviz {

// Marks a chart of one mark per row (scatter, line) draws at most; past it, a sample of the rows.
inline constexpr std::size_t kMaxChartMarks = 5000;

struct ChartSample {  // a chart that draws `shown` of its relation's `of` rows
  std::size_t shown = 0;
  std::size_t of = 0;

  // "Showing 5,000 of 655,360 points, sampled": the chart's title and the reports' note.
  std::string text() const {
    return "Showing " + core::format_integer(static_cast<std::int64_t>(shown), 1000) + " of " +
           core::format_integer(static_cast<std::int64_t>(of), 1000) + " points, sampled";
  }
};

struct ToolOutput {
  std::optional<data::QueryResult> table;
  bool truncated = false;                // the relation holds more rows than `table`
  std::optional<std::size_t> row_count;  // the relation's rows, when the tool counted them all
  std::string sql;                       // the statement that built `relation` (or read the chart's data)
  std::string relation;                  // the relation this step produced; empty for charts
  std::string chart;                     // Vega-Lite v5 spec, compact JSON text (Json::dump); empty when none
  std::optional<ChartSample> sampled;    // the chart's marks are a sample of the relation's rows
  std::vector<std::filesystem::path> files;  // files written, in the order written
};

}  // namespace planfirst::autoviz
