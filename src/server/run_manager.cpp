#include "server/run_manager.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/error_json.hpp"
#include "core/ids.hpp"
#include "core/logging.hpp"
#include "graph/runner.hpp"
#include "server/run_event_log.hpp"

namespace planfirst::server {
namespace {

// What a run's end event and record say about the runtime's outcome.
core::Json result_json(const graph::RunResult& result) {
  core::Json json{{"status", graph::to_string(result.status)},
                  {"checkpoint_id", result.checkpoint_id},
                  {"step", result.step},
                  {"last_completed_node", result.last_completed_node}};
  if (result.status == graph::RunStatus::kInterrupted) {
    json["interrupt"] = {{"node", result.interrupt_node},
                         {"message", result.message},
                         {"prompt", result.prompt},
                         {"checkpoint_id", result.checkpoint_id}};
  }
  if (result.error) json["error"] = core::error_json(*result.error);
  return json;
}

}  // namespace

RunManager::RunManager(Assistants& assistants, graph::Checkpointer& checkpoints, RunStore& store,
                       EventBell& bell, core::MetricsRegistry& metrics, RunManagerOptions options)
    : assistants_(assistants),
      checkpoints_(checkpoints),
      store_(store),
      bell_(bell),
      metrics_(metrics),
      options_(std::move(options)) {
  if (options_.worker_id.empty()) options_.worker_id = core::RandomIdGenerator().next();
  if (options_.workers == 0) options_.workers = 1;
}

RunManager::~RunManager() {
  stop();
}

void RunManager::start() {
  std::lock_guard lock(mutex_);
  if (started_) return;
  started_ = true;
  stopping_ = false;
  for (std::size_t i = 0; i < options_.workers; ++i) threads_.emplace_back([this] { work(); });
  threads_.emplace_back([this] { heartbeat(); });
}

bool RunManager::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

void RunManager::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!started_) return;
    stopping_ = true;
    for (auto& [id, active] : active_) {
      active->shutdown = true;
      active->stop.cancel();
    }
  }
  changed_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
  std::lock_guard lock(mutex_);
  started_ = false;
}

void RunManager::wake() {
  changed_.notify_all();
}

core::Result<void> RunManager::cancel(const std::string& run_id) {
  core::Result<bool> dropped = store_.request_cancel(run_id, now_millis());
  if (!dropped) return dropped.error();
  if (*dropped) {  // it was still queued: its log ends here
    RunEventLog log(store_, bell_, metrics_, run_id, "");
    (void)log.append("end", "end",
                     core::Json{{"run_id", run_id}, {"status", "interrupted"}, {"cancelled", true}});
    bell_.forget(run_id);
    metrics_.counter("planfirst_server_runs_total", {{"status", "interrupted"}}).inc();
    return core::ok();
  }
  std::lock_guard lock(mutex_);
  if (auto found = active_.find(run_id); found != active_.end()) found->second->stop.cancel();
  return core::ok();
}

void RunManager::work() {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      if (stopping_) return;
    }
    const Millis now = now_millis();
    core::Result<std::optional<RunRecord>> claimed =
        store_.claim(options_.worker_id, now, now + options_.lease.count());
    if (!claimed) core::log_warn("{}", "run queue: " + claimed.error().describe());
    if (claimed && claimed->has_value()) {
      execute(**claimed);
      continue;
    }
    std::unique_lock lock(mutex_);
    if (stopping_) return;
    changed_.wait_for(lock, options_.poll);
  }
}

void RunManager::heartbeat() {
  const auto every = std::max(options_.lease / 3, std::chrono::milliseconds(50));
  for (;;) {
    std::vector<std::pair<std::string, std::shared_ptr<Active>>> running;
    {
      std::unique_lock lock(mutex_);
      changed_.wait_for(lock, every, [this] { return stopping_; });
      if (stopping_) return;
      running.assign(active_.begin(), active_.end());
      metrics_.gauge("planfirst_server_runs_active").set(static_cast<double>(active_.size()));
    }
    if (auto pending = store_.count_runs(RunStatus::kPending); pending)
      metrics_.gauge("planfirst_server_queue_depth").set(static_cast<double>(*pending));
    for (auto& [run_id, active] : running) {
      core::Result<Lease> lease =
          store_.renew(run_id, options_.worker_id, now_millis() + options_.lease.count());
      if (!lease) continue;                   // the next beat tries again
      if (!lease->held) active->lost = true;  // another process took it over
      if (!lease->held || lease->cancel_requested) active->stop.cancel();
    }
  }
}

void RunManager::finish(const RunRecord& run, RunStatus status, const core::Json& result, RunEventLog& log) {
  core::Json end = result;
  end["run_id"] = run.run_id;
  end["run_status"] = to_string(status);
  if (auto appended = log.append("end", "end", end); !appended)
    core::log_warn("{}", "run " + run.run_id + ": " + appended.error().describe());
  core::Result<bool> finished =
      store_.finish(run.run_id, options_.worker_id, status, result.dump(), now_millis());
  if (!finished) core::log_warn("{}", "run " + run.run_id + ": " + finished.error().describe());
  metrics_.counter("planfirst_server_runs_total", {{"status", std::string(to_string(status))}}).inc();
  bell_.forget(run.run_id);
}

void RunManager::execute(const RunRecord& run) {
  auto active = std::make_shared<Active>();
  {
    std::lock_guard lock(mutex_);
    if (stopping_) {
      (void)store_.release(run.run_id, options_.worker_id);
      return;
    }
    active_[run.run_id] = active;
  }
  const auto started_at = std::chrono::steady_clock::now();
  RunEventLog log(store_, bell_, metrics_, run.run_id, run.assistant_id);
  (void)log.append(
      "metadata", "metadata",
      core::Json{{"run_id", run.run_id}, {"thread_id", run.thread_id}, {"assistant_id", run.assistant_id}});

  auto outcome = [&]() -> core::Result<graph::RunResult> {
    core::Result<graph::CompiledGraph> compiled = assistants_.graph(run.assistant_id);
    if (!compiled) return compiled.error();
    graph::RunnerOptions options;
    options.checkpointer = &checkpoints_;
    options.events = &log;
    options.stream_values = true;
    options.stop = &active->stop;
    graph::Runner runner(*compiled, options);
    core::Result<std::optional<graph::CheckpointRecord>> head = checkpoints_.head(run.thread_id);
    if (!head) return head.error();
    const std::string head_id = head->has_value() ? (*head)->checkpoint_id : std::string();
    if (run.started && head_id != run.start_checkpoint_id && head->has_value()) {
      // Taken over after a crash or a shutdown: continue from the last checkpoint, never from the start.
      const graph::CheckpointRecord& record = **head;
      if (record.status == graph::CheckpointStatus::kRunning || graph::stopped_record(record))
        return runner.recover(run.thread_id);
      graph::RunResult done;  // it had ended; only its end was not recorded
      done.status = record.status == graph::CheckpointStatus::kInterrupted ? graph::RunStatus::kInterrupted
                    : record.status == graph::CheckpointStatus::kFailed    ? graph::RunStatus::kFailed
                                                                           : graph::RunStatus::kDone;
      done.thread_id = run.thread_id;
      done.checkpoint_id = record.checkpoint_id;
      done.step = record.step;
      done.last_completed_node = record.last_completed_node;
      done.interrupt_node = record.node;
      const core::Json metadata = core::Json::parse(record.metadata_json, nullptr, false);
      if (metadata.is_object()) {
        done.message = metadata.value("checkpoint_message", "");
        done.prompt = metadata.value("checkpoint_prompt", "");
      }
      return done;
    }
    if (!run.started) {
      if (auto marked = store_.mark_started(run.run_id, head_id); !marked) return marked.error();
    }
    if (!run.resume_checkpoint_id.empty())
      return runner.resume(run.thread_id, run.resume_checkpoint_id, run.resume_answer);
    core::Result<graph::JsonValue> input =
        graph::JsonValue::parse(run.input_json.empty() ? "{}" : run.input_json);
    if (!input) return input.error();
    return runner.run(run.thread_id, *input);
  }();

  const bool stopped = outcome && outcome->status == graph::RunStatus::kFailed && active->stop.cancelled() &&
                       outcome->error && outcome->error->code == core::ErrorCode::kUnavailable;
  if (active->lost) {
    // another process holds the run now and goes on from the last checkpoint
  } else if (stopped && active->shutdown) {
    (void)store_.release(run.run_id, options_.worker_id);
  } else if (stopped) {
    core::Json result = result_json(*outcome);
    result["cancelled"] = true;
    finish(run, RunStatus::kInterrupted, result, log);
  } else if (!outcome) {
    finish(run, RunStatus::kError,
           core::Json{{"status", "failed"}, {"error", core::error_json(outcome.error())}}, log);
  } else {
    const RunStatus status =
        outcome->status == graph::RunStatus::kFailed ? RunStatus::kError : RunStatus::kSuccess;
    finish(run, status, result_json(*outcome), log);
  }
  metrics_.histogram("planfirst_server_run_seconds", {{"assistant", run.assistant_id}})
      .observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at).count());
  std::lock_guard lock(mutex_);
  active_.erase(run.run_id);
}

}  // namespace planfirst::server
