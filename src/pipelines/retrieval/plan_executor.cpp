#include "pipelines/retrieval/plan_executor.hpp"

#include <algorithm>
#include <exception>
#include <future>
#include <thread>

#include "core/cancellation.hpp"
#include "graph/thread_pool.hpp"

namespace planfirst::retrieval {

struct PlanExecutor::Job {
  QueryOutcome result;  // ids, source, kind and time range filled in; the rest by run()
  sources::SourceQuery query;
  std::string failure;  // set when the query could not be built (a date that does not resolve)
};

namespace {

std::vector<std::string> filter_values(const RetrievalPlan& plan, std::string_view name) {
  const Filter* filter = plan.filter(name);
  return filter == nullptr ? std::vector<std::string>{} : filter->values;
}

// Calls `fetch` under `timeout`: a watchdog cancels the token when time runs out. A source that
// honours its token returns promptly then; its answer is discarded as timed out.
template <typename Fetch>
auto fetch_with_timeout(std::chrono::milliseconds timeout, bool& timed_out, Fetch fetch) {
  core::CancellationToken token;
  core::CancellationToken finished;
  std::thread watchdog([&] {
    if (!finished.wait_for(timeout)) token.cancel();
  });
  auto answer = fetch(token);
  finished.cancel();
  watchdog.join();
  timed_out = token.cancelled();
  return answer;
}

}  // namespace

Attempt PlanExecutor::attempt(const std::string& source, const sources::SourceQuery& query,
                              QueryOutcome& result) const {
  auto found = sources_.find(source);
  if (found == sources_.end() || found->second == nullptr) {
    return {source, AttemptStatus::kNotConfigured, "source \"" + source + "\" is not configured"};
  }
  const SourceSettings& settings = rules_.execution.source(source);
  sources::SourceQuery limited = query;
  limited.limit = settings.limit;
  bool timed_out = false;
  core::Result<std::vector<sources::EvidenceItem>> items = fetch_with_timeout(
      settings.timeout, timed_out,
      [&](const core::CancellationToken& token) -> core::Result<std::vector<sources::EvidenceItem>> {
        try {
          return found->second->fetch(limited, &token);
        } catch (const std::exception& e) {
          return core::internal_error("source \"" + source + "\" threw: " + e.what());
        }
      });
  if (timed_out) {
    return {source, AttemptStatus::kTimedOut,
            "source \"" + source + "\" timed out after " + std::to_string(settings.timeout.count()) + " ms"};
  }
  if (!items)
    return {source, AttemptStatus::kFailed, "source \"" + source + "\": " + items.error().describe()};
  result.truncated = items->size() > settings.limit;
  if (result.truncated) items->resize(settings.limit);
  result.items = std::move(*items);
  result.answered_by = source;
  return {source, AttemptStatus::kOk, ""};
}

QueryOutcome PlanExecutor::run(const Job& job) const {
  QueryOutcome result = job.result;
  if (!job.failure.empty()) {
    result.attempts.push_back({job.result.source, AttemptStatus::kSkipped, job.failure});
    return result;
  }
  const auto started = clock_.steady_now();
  std::vector<std::string> candidates{job.result.source};
  for (const std::string& fallback : rules_.execution.source(job.result.source).fallbacks) {
    if (std::find(candidates.begin(), candidates.end(), fallback) == candidates.end())
      candidates.push_back(fallback);
  }
  for (const std::string& source : candidates) {
    result.attempts.push_back(attempt(source, job.query, result));
    if (result.ok()) break;
  }
  result.elapsed_ms = std::chrono::duration<double, std::milli>(clock_.steady_now() - started).count();
  return result;
}

std::vector<QueryOutcome> PlanExecutor::execute(const std::vector<RetrievalPlan>& plans,
                                                const DateResolver& dates) const {
  std::vector<Job> jobs;
  for (const RetrievalPlan& plan : plans) {
    core::Result<std::optional<sources::TimeRange>> time = dates.resolve_all(filter_values(plan, "dates"));
    for (std::size_t i = 0; i < plan.sources.size(); ++i) {
      Job job;
      job.result.query_id = query_id(plan, i);
      job.result.plan_id = plan.id;
      job.result.source = plan.sources[i];
      job.result.kind = rules_.kind_of(plan.description, plan.sources[i]);
      job.query.kind = job.result.kind;
      job.query.projects = filter_values(plan, "projects");
      job.query.statuses = filter_values(plan, "statuses");
      job.query.assignees = filter_values(plan, "assignees");
      job.query.authors = filter_values(plan, "authors");
      job.query.text = query_string(plan);
      if (time) {
        job.result.time = *time;
        job.query.time = *time;
      } else {
        job.failure = time.error().message;
      }
      jobs.push_back(std::move(job));
    }
  }
  std::vector<QueryOutcome> results;
  results.reserve(jobs.size());
  const std::size_t threads = std::min(jobs.size(), rules_.execution.max_parallel);
  if (threads <= 1) {
    for (const Job& job : jobs) results.push_back(run(job));
    return results;
  }
  graph::ThreadPool pool(threads);
  std::vector<std::future<QueryOutcome>> pending;
  pending.reserve(jobs.size());
  for (const Job& job : jobs) pending.push_back(pool.submit([this, &job] { return run(job); }));
  for (std::future<QueryOutcome>& future : pending) results.push_back(future.get());
  return results;
}

}  // namespace planfirst::retrieval
