#include "pipelines/sqlopt/optimizer.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {

core::Json Candidate::to_json() const {
  return {{"transform", rewrite.transform},
          {"sql", rewrite.sql},
          {"equivalent", validation.equivalence.equal},
          {"speedup", validation.speedup},
          {"verdict", to_string(validation.verdict)},
          {"rule", rewrite.rule},
          {"rationale", rewrite.rationale},
          {"median_before_ms", validation.median_a_ms},
          {"median_after_ms", validation.median_b_ms},
          {"plan_diff", validation.diff.to_json()}};
}

core::Json AvoidedRewrite::to_json() const {
  return {{"transform", rewrite.transform},
          {"rule", rewrite.rule},
          {"regression", regression.id},
          {"shape", regression.shape},
          {"example", regression.example}};
}

core::Json Optimization::to_json() const {
  core::Json out = analysis.to_json();
  out["regressions_avoided"] = core::Json::array();
  for (const AvoidedRewrite& item : avoided) out["regressions_avoided"].push_back(item.to_json());
  out["index_hypotheses"] = index_hypotheses ? index_hypotheses->to_json() : core::Json();
  for (const Candidate& candidate : candidates) out["candidates"].push_back(candidate.to_json());
  out["best"] = best ? candidates[*best].to_json() : core::Json();
  return out;
}

std::string Optimization::to_text() const {
  std::string out = analysis.to_text();
  for (const AvoidedRewrite& item : avoided)
    out += fmt::format("\nNot proposed: {} ({}): known regression {} on this engine: {} (evidence: {})\n",
                       item.rewrite.transform, item.rewrite.rule, item.regression.id, item.regression.shape,
                       item.regression.example);
  out += "\nCandidates:\n";
  if (candidates.empty())
    out += avoided.empty() ? "  none: no rule's preconditions hold for the findings above\n"
                           : "  none: the only rewrites are known regressions (above)\n";
  for (const Candidate& c : candidates) {
    out += fmt::format("- {} ({}): {}", c.rewrite.transform, c.rewrite.rule, to_string(c.validation.verdict));
    if (c.validation.equivalence.equal) {
      out += fmt::format(", same rows, {:.2f}x (median {:.1f} ms -> {:.1f} ms)\n", c.validation.speedup,
                         c.validation.median_a_ms, c.validation.median_b_ms);
    } else {
      out += ", rows differ: " + c.validation.equivalence.difference + "\n";
    }
  }
  if (index_hypotheses) out += index_hypotheses->to_text();
  if (!best) {
    out +=
        "\nRecommendation: none. No rewrite is a verified WIN (>= 1.10x with the same rows); keep the "
        "query.\n";
    return out;
  }
  const Candidate& c = candidates[*best];
  out += fmt::format(
      "\nRecommendation: {} ({:.2f}x, same rows)\nWhy it is equivalent: {}\n\nRewritten SQL:\n{}\n",
      c.rewrite.transform, c.validation.speedup, c.rewrite.rationale, c.rewrite.sql);
  out += "\nPlan diff:\n" + c.validation.diff.to_text();
  return out;
}

core::Result<Optimization> optimize_query(SqlSession& session, const std::string& sql,
                                          const SqlKnowledge& knowledge) {
  core::Result<LogicTree> logic = build_logic_tree(sql);
  if (!logic) return logic.error();
  core::Result<std::string> version = session.server_version();
  if (!version) return version.error();
  core::Result<PlanTree> plan = session.explain_analyze(sql);
  if (!plan) return plan.error();
  Optimization result;
  result.analysis = analyze_plan(std::move(*plan), std::move(*logic), knowledge, std::move(*version));
  if (session.engine() == Engine::kPostgres) {
    core::Result<IndexHypotheses> indexes = hypothesize_indexes(session, sql, result.analysis.plan);
    if (!indexes) return indexes.error();
    result.index_hypotheses = std::move(*indexes);
  }
  core::Result<SchemaFacts> facts = session.schema_facts();
  if (!facts) return facts.error();
  std::vector<Rewrite> rewrites;
  const EngineProfile& profile = knowledge.profiles.of(result.analysis.plan.engine);
  for (Rewrite& rewrite : propose_rewrites(result.analysis.logic, result.analysis.findings, *facts)) {
    if (const KnownRegression* known = profile.regression_for(rewrite.rule, result.analysis.plan)) {
      result.avoided.push_back({std::move(rewrite), *known});
      continue;
    }
    rewrites.push_back(std::move(rewrite));
  }
  if (rewrites.empty()) return result;
  // The query's rows, plan and timings are measured once, for every rewrite.
  core::Result<Baseline> baseline = measure_baseline(session, sql, &result.analysis.plan);
  if (!baseline) return baseline.error();
  for (Rewrite& rewrite : rewrites) {
    core::Result<Validation> validation = validate_against(session, *baseline, rewrite.sql);
    if (!validation) {
      // A rewrite the engine refuses is a failed candidate, not a failed run.
      if (validation.error().code != core::ErrorCode::kInvalidArgument) return validation.error();
      Validation refused;
      refused.equivalence = {false, "the engine refused the rewrite: " + validation.error().message};
      result.candidates.push_back({std::move(rewrite), std::move(refused)});
      continue;
    }
    result.candidates.push_back({std::move(rewrite), std::move(*validation)});
  }
  for (std::size_t i = 0; i < result.candidates.size(); ++i) {
    const Validation& v = result.candidates[i].validation;
    if (v.verdict != Verdict::kWin || !v.equivalence.equal) continue;
    if (!result.best || v.speedup > result.candidates[*result.best].validation.speedup) result.best = i;
  }
  return result;
}

}  // namespace planfirst::sqlopt
