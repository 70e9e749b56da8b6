// ThreadRetention is which whole threads a store keeps: the `keep_threads` updated most recently, and
// of those only the ones updated within `max_age` (a head older than that goes, whatever its rank).
// `planfirst ask` applies it to the default store before each run, from checkpoint.keep_threads and
// checkpoint.keep_days; `planfirst threads prune` applies it on demand. The thread about to run is
// never removed and counts as the newest, stored yet or not, so a run leaves at most `keep_threads`.
// Works on any Checkpointer through its interface.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "graph/checkpointer.hpp"

namespace planfirst::graph {

struct ThreadRetention {
  std::optional<std::size_t> keep_threads = std::nullopt;                     // unset: no limit by count
  std::optional<std::chrono::system_clock::duration> max_age = std::nullopt;  // unset: no limit by age
  bool limits() const { return keep_threads.has_value() || max_age.has_value(); }
};

struct ThreadPruneReport {
  std::vector<std::string> removed;  // newest first
  std::size_t kept = 0;
};

// Removes the threads `retention` does not keep, judged by their heads' times against `now`; never
// `protect`. A thread removed meanwhile by another process is skipped. The store's errors otherwise.
core::Result<ThreadPruneReport> prune_threads(Checkpointer& store, const ThreadRetention& retention,
                                              std::chrono::system_clock::time_point now,
                                              std::string_view protect = {});

// "removed 3 threads (keeping the newest 100, none older than 30 days)"; "" when none was removed.
std::string describe(const ThreadPruneReport& report, const ThreadRetention& retention);

}  // namespace planfirst::graph
