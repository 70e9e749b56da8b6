// PlanExecutor runs retrieval plans against the configured sources (seed 001's execution, with its
// future enhancements): one SourceQuery per plan source, with the plan's projects, statuses,
// assignees, authors, dates resolved to a time range, its query string and the source's volume limit;
// independent queries in parallel (up to ExecutionSettings::max_parallel); each attempt cancelled after the
// source's timeout; a failed or unconfigured source replaced by its fallbacks in order; items beyond the
// limit dropped. A failure is recorded in its QueryOutcome, never thrown: the others still return.
// Results come back in query order whatever finished first. Immutable; threads may share one.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "pipelines/retrieval/date_resolver.hpp"
#include "pipelines/retrieval/execution_settings.hpp"
#include "pipelines/retrieval/plan_rules.hpp"
#include "pipelines/retrieval/query_outcome.hpp"
#include "pipelines/retrieval/retrieval_plan.hpp"
#include "sources/retrieval_source.hpp"
#include "sources/source_map.hpp"

namespace planfirst::retrieval {

using sources::SourceMap;

class PlanExecutor {
 public:
  // REQUIRES: all three outlive the executor.
  PlanExecutor(const SourceMap& sources, const PlanRules& rules, const core::Clock& clock)
      : sources_(sources), rules_(rules), clock_(clock) {}

  std::vector<QueryOutcome> execute(const std::vector<RetrievalPlan>& plans, const DateResolver& dates) const;

 private:
  struct Job;
  QueryOutcome run(const Job& job) const;
  Attempt attempt(const std::string& source, const sources::SourceQuery& query, QueryOutcome& result) const;

  const SourceMap& sources_;
  const PlanRules& rules_;
  const core::Clock& clock_;
};

}  // namespace planfirst::retrieval
