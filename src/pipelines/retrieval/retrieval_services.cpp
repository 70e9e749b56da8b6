#include "pipelines/retrieval/retrieval_services.hpp"

namespace planfirst::retrieval {

core::Result<std::shared_ptr<const RetrievalServices>> RetrievalServices::load(const core::AssetStore& assets,
                                                                               SourceMap sources,
                                                                               TimeZone zone) {
  core::Result<IntentRules> intents = IntentRules::load(assets);
  if (!intents) return intents.error();
  core::Result<PlanRules> plans = PlanRules::load(assets);
  if (!plans) return plans.error();
  return std::make_shared<const RetrievalServices>(std::move(*intents), std::move(*plans), std::move(sources),
                                                   std::move(zone));
}

}  // namespace planfirst::retrieval
