#include "pipelines/sqlopt/validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {
namespace {

std::vector<OperatorLine> lines_of(const PlanTree& plan) {
  std::vector<OperatorLine> lines;
  for (const PlanNode& node : plan.nodes) {
    if (node.op == "PROJECTION") continue;
    lines.push_back({node.op, node.table, node.actual_rows.value_or(0), node.exclusive_ms});
  }
  return lines;
}

core::Json lines_json(const std::vector<OperatorLine>& lines) {
  core::Json out = core::Json::array();
  for (const OperatorLine& line : lines) {
    core::Json item = {{"operator", line.op}, {"rows", line.rows}, {"ms", line.ms}};
    if (!line.table.empty()) item["table"] = line.table;
    out.push_back(std::move(item));
  }
  return out;
}

core::Result<std::vector<double>> timed_runs(SqlSession& session, const std::string& sql) {
  for (int i = 0; i < kWarmupRuns; ++i) {
    core::Result<double> warm = session.time_run(sql);
    if (!warm) return warm.error();
  }
  std::vector<double> runs;
  for (int i = 0; i < kTimedRuns; ++i) {
    core::Result<double> run = session.time_run(sql);
    if (!run) return run.error();
    runs.push_back(*run);
  }
  return runs;
}

}  // namespace

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kWin: return "WIN";
    case Verdict::kNeutral: return "NEUTRAL";
    case Verdict::kRegression: return "REGRESSION";
    case Verdict::kNotEquivalent: break;
  }
  return "NOT_EQUIVALENT";
}

Verdict verdict_for(double speedup) {
  if (speedup >= kWinSpeedup) return Verdict::kWin;
  if (speedup < kRegressionSpeedup) return Verdict::kRegression;
  return Verdict::kNeutral;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

PlanDiff diff_plans(const PlanTree& before, const PlanTree& after) {
  PlanDiff diff;
  diff.before = lines_of(before);
  diff.after = lines_of(after);
  diff.before_ms = before.total_ms;
  diff.after_ms = after.total_ms;
  std::map<std::string, int> count;
  for (const OperatorLine& line : diff.before) ++count[line.op];
  for (const OperatorLine& line : diff.after) --count[line.op];
  for (const auto& [op, n] : count) {
    for (int i = 0; i < n; ++i) diff.disappeared.push_back(op);
    for (int i = 0; i < -n; ++i) diff.appeared.push_back(op);
  }
  return diff;
}

core::Json PlanDiff::to_json() const {
  return {{"disappeared", disappeared}, {"appeared", appeared},   {"before", lines_json(before)},
          {"after", lines_json(after)}, {"before_ms", before_ms}, {"after_ms", after_ms}};
}

std::string PlanDiff::to_text() const {
  auto cell = [](const std::vector<OperatorLine>& lines, std::size_t i) -> std::string {
    if (i >= lines.size()) return "";
    const OperatorLine& l = lines[i];
    return fmt::format("{}{} {:.0f} rows {:.1f} ms", l.op, l.table.empty() ? "" : " " + l.table, l.rows,
                       l.ms);
  };
  std::string out = fmt::format("{:<48} | {}\n", fmt::format("before ({:.1f} ms)", before_ms),
                                fmt::format("after ({:.1f} ms)", after_ms));
  for (std::size_t i = 0; i < std::max(before.size(), after.size()); ++i)
    out += fmt::format("{:<48} | {}\n", cell(before, i), cell(after, i));
  out += "disappeared: " +
         (disappeared.empty() ? std::string("none") : fmt::format("{}", fmt::join(disappeared, ", "))) + "\n";
  out +=
      "appeared: " + (appeared.empty() ? std::string("none") : fmt::format("{}", fmt::join(appeared, ", "))) +
      "\n";
  return out;
}

core::Json Validation::to_json() const {
  core::Json out = {
      {"equivalent", equivalence.equal}, {"verdict", to_string(verdict)}, {"speedup", speedup},
      {"median_a_ms", median_a_ms},      {"median_b_ms", median_b_ms},    {"runs_a_ms", runs_a_ms},
      {"runs_b_ms", runs_b_ms},          {"plan_diff", diff.to_json()}};
  if (!equivalence.equal) out["difference"] = equivalence.difference;
  return out;
}

core::Result<Baseline> measure_baseline(SqlSession& session, const std::string& a, const PlanTree* plan) {
  core::Result<data::QueryResult> rows = session.run(a);
  if (!rows) return rows.error();
  Baseline baseline{a, std::move(*rows), {}, {}};
  if (plan != nullptr) {
    baseline.plan = *plan;
    return baseline;
  }
  core::Result<PlanTree> collected = session.explain_analyze(a);
  if (!collected) return collected.error();
  baseline.plan = std::move(*collected);
  return baseline;
}

core::Result<Validation> validate_against(SqlSession& session, Baseline& baseline, const std::string& b) {
  Validation validation;
  core::Result<data::QueryResult> rows_b = session.run(b);
  if (!rows_b) return rows_b.error();
  validation.equivalence = compare_results(baseline.rows, *rows_b);
  core::Result<PlanTree> plan_b = session.explain_analyze(b);
  if (!plan_b) return plan_b.error();
  validation.diff = diff_plans(baseline.plan, *plan_b);
  if (!validation.equivalence.equal) return validation;
  if (baseline.runs_ms.empty()) {
    core::Result<std::vector<double>> runs_a = timed_runs(session, baseline.sql);
    if (!runs_a) return runs_a.error();
    baseline.runs_ms = std::move(*runs_a);
  }
  core::Result<std::vector<double>> runs_b = timed_runs(session, b);
  if (!runs_b) return runs_b.error();
  validation.runs_a_ms = baseline.runs_ms;
  validation.runs_b_ms = std::move(*runs_b);
  validation.median_a_ms = median(validation.runs_a_ms);
  validation.median_b_ms = median(validation.runs_b_ms);
  validation.speedup = validation.median_b_ms > 0 ? validation.median_a_ms / validation.median_b_ms : 0;
  validation.verdict = verdict_for(validation.speedup);
  return validation;
}

core::Result<Validation> validate_rewrite(SqlSession& session, const std::string& a, const std::string& b) {
  core::Result<Baseline> baseline = measure_baseline(session, a);
  if (!baseline) return baseline.error();
  return validate_against(session, *baseline, b);
}

}  // namespace planfirst::sqlopt
