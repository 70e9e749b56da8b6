// RetrievalServices holds what every node of the retrieval graph uses and no run changes: the
// intent detector and the planner with their rules from assets/, the sources plans may fetch from
// (none configured: every query is recorded as "not configured"), and the default time zone for
// dates. Immutable after construction; graphs and threads share one.
#pragma once

#include <memory>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/retrieval/intent_detector.hpp"
#include "pipelines/retrieval/plan_executor.hpp"
#include "pipelines/retrieval/retrieval_planner.hpp"
#include "pipelines/retrieval/time_zone.hpp"

namespace planfirst::retrieval {

struct RetrievalServices {
  RetrievalServices(IntentRules intent_rules, PlanRules plan_rules, SourceMap sources, TimeZone zone)
      : detector(std::move(intent_rules)),
        planner(std::move(plan_rules)),
        sources(std::move(sources)),
        zone(std::move(zone)) {}

  IntentDetector detector;
  RetrievalPlanner planner;
  SourceMap sources;
  TimeZone zone;  // a state's "timezone" overrides it

  // The rules from `assets`; errors name the asset, line and key at fault.
  static core::Result<std::shared_ptr<const RetrievalServices>> load(const core::AssetStore& assets,
                                                                     SourceMap sources = {},
                                                                     TimeZone zone = {});
};

}  // namespace planfirst::retrieval
