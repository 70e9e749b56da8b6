// Shared pieces of the retrieval tests: the rules as shipped in assets/, reasoning values written
// the way the seed's examples write them, and RecordingSource, an in-memory RetrievalSource that
// records every query it is asked and answers, fails, stalls or waits for a partner as told.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/cancellation.hpp"
#include "pipelines/retrieval/intent_rules.hpp"
#include "pipelines/retrieval/plan_rules.hpp"
#include "pipelines/retrieval/reasoning.hpp"
#include "pipelines/retrieval/retrieval_plan.hpp"
#include "sources/retrieval_source.hpp"

namespace planfirst::retrieval::testing {

inline IntentRules shipped_intent_rules() {
  core::Result<IntentRules> rules = IntentRules::load(core::AssetStore());
  EXPECT_TRUE(rules.has_value()) << (rules ? "" : rules.error().describe());
  return rules ? *rules : IntentRules{};
}

inline PlanRules shipped_plan_rules() {
  core::Result<PlanRules> rules = PlanRules::load(core::AssetStore());
  EXPECT_TRUE(rules.has_value()) << (rules ? "" : rules.error().describe());
  return rules ? *rules : PlanRules{};
}

// Reasoning with `intents`, one hypothesis and the entities named like plan filters
// ({{"projects", {"repo1"}}, {"dates", {"last week"}}}), as the seed's usage examples set it up.
inline Reasoning reasoning_with(std::vector<Intent> intents, const std::vector<Filter>& entities = {}) {
  Reasoning reasoning;
  reasoning.intents = std::move(intents);
  reasoning.hypotheses = {{"h0", "Retrieve commit data", {}}};
  for (const Filter& entity : entities) {
    std::vector<std::string>* values = reasoning.entities.values(entity.name);
    if (values == nullptr) ADD_FAILURE() << "no entity filter " << entity.name;
    if (values != nullptr) *values = entity.values;
  }
  return reasoning;
}

class RecordingSource final : public sources::RetrievalSource {
 public:
  enum class Behaviour { kAnswer, kFail, kStallUntilCancelled, kAnswerWithPartner };

  RecordingSource(std::string name, Behaviour behaviour, std::size_t items = 2)
      : name_(std::move(name)), behaviour_(behaviour), items_(items) {}

  std::string name() const override { return name_; }

  core::Result<std::vector<sources::EvidenceItem>> fetch(
      const sources::SourceQuery& query, const core::CancellationToken* cancel) const override {
    {
      std::lock_guard lock(mutex_);
      queries_.push_back(query);
      ++in_flight_;
      max_in_flight_ = std::max(max_in_flight_, in_flight_);
      changed_.notify_all();
    }
    core::Result<std::vector<sources::EvidenceItem>> answer = respond(query, cancel);
    std::lock_guard lock(mutex_);
    --in_flight_;
    return answer;
  }

  std::vector<sources::SourceQuery> queries() const {
    std::lock_guard lock(mutex_);
    return queries_;
  }
  int max_in_flight() const {
    std::lock_guard lock(mutex_);
    return max_in_flight_;
  }

 private:
  core::Result<std::vector<sources::EvidenceItem>> respond(const sources::SourceQuery& query,
                                                           const core::CancellationToken* cancel) const {
    switch (behaviour_) {
      case Behaviour::kFail: return core::unavailable(name_ + " answered 500");
      case Behaviour::kStallUntilCancelled:
        if (cancel != nullptr) cancel->wait_for(std::chrono::seconds(30));
        return core::unavailable(name_ + " cancelled");
      case Behaviour::kAnswerWithPartner: {
        // Answers once a second query is in flight at the same time (or after 10 s without one).
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, std::chrono::seconds(10), [&] { return in_flight_ >= 2; });
        break;
      }
      case Behaviour::kAnswer: break;
    }
    std::vector<sources::EvidenceItem> items;
    for (std::size_t i = 0; i < items_; ++i) {
      sources::EvidenceItem item;
      item.source = name_;
      item.id = name_ + ":" + query.kind + "/" + std::to_string(i);
      item.title = query.kind + " " + std::to_string(i);
      item.snippet = "from " + name_;
      item.fields = {{"author", "ada"}};
      item.provenance = {name_, "/api/" + query.kind, query.text, "2024-01-17T12:00:00Z"};
      items.push_back(std::move(item));
    }
    return items;
  }

  std::string name_;
  Behaviour behaviour_;
  std::size_t items_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  mutable std::vector<sources::SourceQuery> queries_;  // guarded by mutex_
  mutable int in_flight_ = 0;                          // guarded by mutex_
  mutable int max_in_flight_ = 0;                      // guarded by mutex_
};

}  // namespace planfirst::retrieval::testing
