#include "graph/thread_retention.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace planfirst::graph {

core::Result<ThreadPruneReport> prune_threads(Checkpointer& store, const ThreadRetention& retention,
                                              std::chrono::system_clock::time_point now,
                                              std::string_view protect) {
  ThreadPruneReport report;
  if (!retention.limits()) return report;
  core::Result<std::vector<std::string>> threads = store.threads();
  if (!threads) return threads.error();
  struct Updated {
    std::chrono::system_clock::time_point at;
    std::string thread;
  };
  std::vector<Updated> heads;
  for (const std::string& thread : *threads) {
    if (thread == protect) {  // counted as the newest below, whatever its head's time
      ++report.kept;
      continue;
    }
    core::Result<std::optional<CheckpointRecord>> head = store.head(thread);
    if (!head) return head.error();
    if (head->has_value()) heads.push_back({(*head)->created_at, thread});
  }
  std::sort(heads.begin(), heads.end(), [](const Updated& a, const Updated& b) {
    return a.at != b.at ? a.at > b.at : a.thread < b.thread;  // newest first, ties by id
  });
  const std::size_t first_rank = protect.empty() ? 0 : 1;  // the thread about to run is the newest
  for (std::size_t i = 0; i < heads.size(); ++i) {
    const bool too_many = retention.keep_threads && first_rank + i >= *retention.keep_threads;
    const bool too_old = retention.max_age && heads[i].at < now - *retention.max_age;
    if (!too_many && !too_old) {
      ++report.kept;
      continue;
    }
    if (core::Result<void> deleted = store.delete_thread(heads[i].thread);
        !deleted && deleted.error().code != core::ErrorCode::kNotFound) {
      return deleted.error();
    }
    report.removed.push_back(heads[i].thread);
  }
  return report;
}

std::string describe(const ThreadPruneReport& report, const ThreadRetention& retention) {
  if (report.removed.empty()) return {};
  std::vector<std::string> rules;
  if (retention.keep_threads) rules.push_back(fmt::format("keeping the newest {}", *retention.keep_threads));
  if (retention.max_age) {
    const auto days = std::chrono::duration_cast<std::chrono::hours>(*retention.max_age).count() / 24;
    rules.push_back(fmt::format("none older than {} day{}", days, days == 1 ? "" : "s"));
  }
  return fmt::format("removed {} thread{} ({})", report.removed.size(), report.removed.size() == 1 ? "" : "s",
                     fmt::join(rules, ", "));
}

}  // namespace planfirst::graph
