// ExecutionSettings say how execute_plans runs plans (seed 001's future enhancements): per source a
// volume limit, a timeout per attempt, the record kind it serves by default and the fallback
// sources tried in order when it fails or is not configured; and how many queries run at once.
// Read from assets/retrieval/plans.yaml with the plan rules. A value.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::retrieval {

struct SourceSettings {
  std::size_t limit = 50;                     // items per query at most
  std::chrono::milliseconds timeout{10'000};  // per attempt
  std::string kind = "documents";             // record kind of a plan the rules do not know
  std::vector<std::string> fallbacks;         // tried in order after this source fails
};

struct ExecutionSettings {
  std::size_t max_parallel = 4;  // queries running at once; 1: one after another
  SourceSettings default_source;
  std::map<std::string, SourceSettings, std::less<>> sources;

  const SourceSettings& source(std::string_view name) const {
    auto found = sources.find(name);
    return found == sources.end() ? default_source : found->second;
  }
};

}  // namespace planfirst::retrieval
