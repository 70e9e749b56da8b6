// RetrievalPlanner is seed 001's Retrieval Planner Agent: from reasoning.intents (and the entities)
// it makes the plans PlanRules give each intent of confidence >= 0.3, the generic fallback
// (priority 5) for an intent without rules, drops repeats, sorts by priority (stable: ties keep
// the order they were made in) and derives one normalized query per plan source. Zero model calls,
// no I/O, the input never modified: same reasoning, same output, byte for byte. Immutable after
// construction; threads may share one.
#pragma once

#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/retrieval/plan_rules.hpp"
#include "pipelines/retrieval/reasoning.hpp"
#include "pipelines/retrieval/retrieval_plan.hpp"

namespace planfirst::retrieval {

inline constexpr double kConfidenceThreshold = 0.3;  // intents below it make no plan

// The seed's agent metadata and capabilities.
struct PlannerCapabilities {
  std::string_view agent_id = "retrieval_planner";
  std::string_view version = "1.0.0";
  std::string_view type = "Rule-based Planning Agent";
  std::string_view dependencies[2] = {"intent_detection", "reasoning_structure"};
  bool supports_parallel_execution = false;  // must run after the reasoning structure
  bool supports_retry = true;                // safe to retry on failure
  bool requires_llm = false;                 // rule-based
  bool is_deterministic = true;              // same input, same output
  int estimated_duration_ms = 80;            // the seed's figure; measured: bench/retrieval_bench.cpp
};
core::Json to_json(const PlannerCapabilities& capabilities);

struct PlannerOutput {
  std::vector<RetrievalPlan> plans;     // by priority, highest first
  std::vector<RetrievalQuery> queries;  // one per plan source, in plan order
  std::vector<Intent> skipped;          // intents below the threshold
};

class RetrievalPlanner {
 public:
  explicit RetrievalPlanner(PlanRules rules) : rules_(std::move(rules)) {}

  // kFailedPrecondition "No intents found in context" / "No hypotheses found in context" when
  // `reasoning` lacks either. All intents below the threshold: no plans, no error (seed:
  // "Empty retrieval plans").
  core::Result<PlannerOutput> plan(const Reasoning& reasoning) const;

  const PlanRules& rules() const { return rules_; }
  static constexpr PlannerCapabilities capabilities() { return {}; }

 private:
  PlanRules rules_;
};

}  // namespace planfirst::retrieval
