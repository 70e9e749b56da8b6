// Scoring of a planned chart against an NL2VIS target. Components compare names case-insensitively;
// a plain count's y is any column (COUNT(col) and COUNT(*) differ only on nulls, which execution
// catches). Execution match compares the drawn rows with the target's as multisets: numbers to 4
// decimals, dates by day, "YYYY-01-01" as "YYYY", month and weekday names by their first three
// letters, and zero-filled target rows optional.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/eval/chart_spec.hpp"
#include "pipelines/autoviz/eval/nl2vis_case.hpp"

namespace planfirst::autoviz {

inline const std::vector<std::string> kNl2visComponents = {"chart", "x",    "y",     "grouping",
                                                           "bin",   "sort", "limit", "filter"};

// Component name -> match, in kNl2visComponents order.
std::map<std::string, bool> score_components(const ChartSpec& predicted, const Nl2visCase& target);

// The rows a Vega-Lite spec with inline data draws, as [[x, y(, color)], ...]; kInvalidArgument
// when the spec has no inline data or no x/y (or theta/color) encoding.
core::Result<core::Json> drawn_rows(const core::Json& vega_lite);

bool rows_match(const core::Json& drawn, const Nl2visCase& target);

// k / n rounded to 4 decimals; 0 when n is 0.
double rounded_rate(int k, int n);

// Running counts over cases, overall and per group (hardness, chart type).
class Nl2visTally {
 public:
  void add(const std::vector<std::string>& groups, const std::map<std::string, bool>& components,
           bool execution);
  // {"overall": {...}, "by_<group kind>": ...}: each with n, exact, execution and every component,
  // as counts and rates. `kinds` names the groups given to add() in order, e.g. {"hardness", "chart"}.
  core::Json to_json(const std::vector<std::string>& kinds) const;

 private:
  struct Counts {
    int n = 0;
    int exact = 0;
    int execution = 0;
    std::map<std::string, int> components;
  };
  static void count(Counts& counts, const std::map<std::string, bool>& components, bool execution);
  static core::Json counts_json(const Counts& counts);
  Counts overall_;
  std::vector<std::map<std::string, Counts>> groups_;
};

}  // namespace planfirst::autoviz
