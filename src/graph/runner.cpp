#include "graph/runner.hpp"

#include <algorithm>
#include <future>
#include <map>
#include <nlohmann/json.hpp>

#include "core/error_json.hpp"
#include "graph/delta_validator.hpp"
#include "graph/state_assembler.hpp"

namespace planfirst::graph {
namespace {

constexpr std::string_view kInputNode = "__input__";
constexpr std::string_view kResumeNode = "__resume__";
constexpr std::string_view kForkNode = "__fork__";

std::string status_name(CheckpointStatus status) {
  return std::string(to_string(status));
}

// The branch name of a fan-out input: its string "id", else its index.
std::string branch_name(const JsonValue& input, std::size_t index) {
  const core::Json& json = input.json();
  if (json.is_object()) {
    auto id = json.find("id");
    if (id != json.end() && id->is_string() && !id->get_ref<const std::string&>().empty())
      return id->get<std::string>();
  }
  return std::to_string(index);
}

core::Json default_answer_delta(const GraphSettings& settings, std::string_view answer) {
  core::Json delta = core::Json::object();
  delta["messages"] = core::Json::array({core::Json{{"role", "human"}, {"content", std::string(answer)}}});
  delta[settings.interrupt_key] = false;
  delta[settings.message_key] = "";
  delta[settings.prompt_key] = "";
  return delta;
}

bool is_true(const core::Json& object, const std::string& key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

std::string string_at(const core::Json& object, const std::string& key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string_view to_string(RunStatus status) {
  switch (status) {
    case RunStatus::kDone: return "done";
    case RunStatus::kInterrupted: return "interrupted";
    case RunStatus::kFailed: return "failed";
  }
  return "failed";
}

bool stopped_record(const CheckpointRecord& record) {
  if (record.status != CheckpointStatus::kFailed) return false;
  const core::Json metadata = core::Json::parse(record.metadata_json, nullptr, false);
  return metadata.is_object() && metadata.value("stopped", false);
}

struct Runner::Cursor {
  std::string thread_id;
  core::Json state = core::Json::object();
  std::string head_id;  // empty before the thread's first record
  std::int64_t step = -1;
  std::string last_completed_node;
  PendingAppendsByKey pending;  // per append-only key, the appends the next chunk will hold
};

struct Runner::StepOutcome {
  core::Json delta = core::Json::object();     // validated; what the node changes
  core::Json metadata = core::Json::object();  // e.g. branch errors of a fan-out
};

Runner::Runner(CompiledGraph graph, RunnerOptions options) : graph_(std::move(graph)), options_(options) {
  if (options_.clock == nullptr) {
    own_clock_ = std::make_unique<core::SystemClock>();
    options_.clock = own_clock_.get();
  }
  if (options_.ids == nullptr) {
    own_ids_ = std::make_unique<core::RandomIdGenerator>();
    options_.ids = own_ids_.get();
  }
  if (options_.sleeper == nullptr) {
    own_sleeper_ = std::make_unique<core::ThreadSleeper>();
    options_.sleeper = own_sleeper_.get();
  }
  options_.chunk_every = std::max<std::size_t>(options_.chunk_every, 1);
}

Runner::~Runner() {
  std::lock_guard lock(abandoned_mutex_);
  for (std::thread& thread : abandoned_) thread.join();
}

void Runner::emit(EventKind kind, const Cursor& cursor, std::string_view node, core::Json data) {
  if (options_.events == nullptr) return;
  Event event;
  event.kind = kind;
  event.thread_id = cursor.thread_id;
  event.checkpoint_id = cursor.head_id;
  event.node = std::string(node);
  event.step = cursor.step;
  event.data = std::move(data);
  options_.events->on_event(event);
}

NodeContext Runner::context_for(const Cursor& cursor, std::string node_path) {
  NodeContext context;
  context.thread_id = cursor.thread_id;
  context.node_path = node_path;
  context.clock = options_.clock;
  context.ids = options_.ids;
  if (options_.events != nullptr) {
    EventSink* sink = options_.events;
    Event base;
    base.kind = EventKind::kProgress;
    base.thread_id = cursor.thread_id;
    base.checkpoint_id = cursor.head_id;
    base.node = std::move(node_path);
    base.step = cursor.step;
    context.progress = [sink, base](std::string_view message) {
      Event event = base;
      event.data = core::Json{{"message", std::string(message)}};
      sink->on_event(event);
    };
  }
  return context;
}

core::Result<Delta> Runner::call_once(const CompiledNode& node, const NodeFunction& function,
                                      const core::Json& state, const NodeContext& context) {
  auto guarded = [&node](const NodeFunction& fn, const core::Json& json,
                         const NodeContext& ctx) -> core::Result<Delta> {
    try {
      return fn(StateView(json), ctx);
    } catch (const std::exception& e) {
      return core::internal_error("node " + ctx.node_path + " threw: " + e.what(), node.name);
    }
  };
  if (!node.policy.timeout) return guarded(function, state, context);

  // The call may outlive this step, so it gets its own copies of everything it reads.
  auto state_copy = std::make_shared<const core::Json>(state);
  auto input_copy =
      context.branch_input != nullptr ? std::make_shared<const JsonValue>(*context.branch_input) : nullptr;
  auto promise = std::make_shared<std::promise<core::Result<Delta>>>();
  std::future<core::Result<Delta>> future = promise->get_future();
  NodeContext call_context = context;
  call_context.branch_input = input_copy.get();
  std::thread worker([guarded, function, state_copy, input_copy, call_context, promise] {
    promise->set_value(guarded(function, *state_copy, call_context));
  });
  if (future.wait_for(*node.policy.timeout) == std::future_status::ready) {
    worker.join();
    return future.get();
  }
  {
    std::lock_guard lock(abandoned_mutex_);
    abandoned_.push_back(std::move(worker));
  }
  return core::unavailable("node " + context.node_path + " timed out after " +
                               std::to_string(node.policy.timeout->count()) + " ms",
                           node.name);
}

core::Result<Delta> Runner::call_with_policy(const CompiledNode& node, const NodeFunction& function,
                                             const core::Json& state, NodeContext context) {
  std::chrono::milliseconds backoff = node.policy.initial_backoff;
  for (int attempt = 1;; ++attempt) {
    context.attempt = attempt;
    core::Result<Delta> result = call_once(node, function, state, context);
    if (result || result.error().code != core::ErrorCode::kUnavailable ||
        attempt >= node.policy.max_attempts) {
      if (!result && attempt > 1) {
        core::Error error = result.error();
        error.message += " (after " + std::to_string(attempt) + " attempts)";
        return error;
      }
      return result;
    }
    if (options_.events != nullptr) {
      Event event;
      event.kind = EventKind::kError;
      event.thread_id = context.thread_id;
      event.node = context.node_path;
      core::Json data = core::error_json(result.error());
      data["attempt"] = attempt;
      data["retry_in_ms"] = backoff.count();
      event.data = std::move(data);
      options_.events->on_event(event);
    }
    options_.sleeper->sleep_for(backoff, nullptr);
    const auto next = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::duration<double, std::milli>(backoff) * node.policy.backoff_multiplier);
    backoff = std::min(next, node.policy.max_backoff);
  }
}

core::Result<Runner::StepOutcome> Runner::execute(const Cursor& cursor, const CompiledNode& node) {
  if (node.fan_out) return execute_fan_out(cursor, node);
  core::Result<Delta> delta =
      call_with_policy(node, node.function, cursor.state, context_for(cursor, node.name));
  if (!delta) return delta.error();
  DeltaReport report = validate_delta(graph_, node, node.name, delta->json());
  if (!report.ok()) return report.error();
  StepOutcome outcome;
  outcome.delta = std::move(delta->json());
  return outcome;
}

core::Result<Runner::StepOutcome> Runner::execute_fan_out(const Cursor& cursor, const CompiledNode& node) {
  NodeContext context = context_for(cursor, node.name);
  core::Result<std::vector<JsonValue>> inputs = [&]() -> core::Result<std::vector<JsonValue>> {
    try {
      return node.plan(StateView(cursor.state), context);
    } catch (const std::exception& e) {
      return core::internal_error("branch planner of " + node.name + " threw: " + e.what(), node.name);
    }
  }();
  if (!inputs) return inputs.error();
  std::call_once(pool_once_, [this] { pool_ = std::make_unique<ThreadPool>(options_.branch_threads); });

  std::vector<std::string> names;
  std::vector<std::future<core::Result<Delta>>> futures;
  for (std::size_t i = 0; i < inputs->size(); ++i) {
    names.push_back(branch_name((*inputs)[i], i));
    NodeContext branch_context = context_for(cursor, node.name + "/" + names.back());
    branch_context.branch_input = &(*inputs)[i];
    branch_context.branch_index = i;
    futures.push_back(pool_->submit([this, &node, &cursor, branch_context]() {
      return call_with_policy(node, node.branch, cursor.state, branch_context);
    }));
  }

  std::vector<BranchOutcome> outcomes;
  std::vector<core::Json> deltas;
  for (std::size_t i = 0; i < futures.size(); ++i) {
    const std::string path = node.name + "/" + names[i];
    core::Result<Delta> delta = futures[i].get();
    BranchOutcome outcome{names[i], std::nullopt};
    if (!delta) {
      outcome.error = delta.error();
    } else if (DeltaReport report = validate_delta(graph_, node, path, delta->json(), DeltaScope::kBranch);
               !report.ok()) {
      outcome.error = report.error();
    } else {
      deltas.push_back(std::move(delta->json()));
    }
    if (outcome.error) emit(EventKind::kError, cursor, path, core::error_json(*outcome.error));
    outcomes.push_back(std::move(outcome));
  }

  // Merge in branch order; a replace key may have one writer only.
  StepOutcome step;
  std::map<std::string, std::string> writer;  // replace key -> branch that wrote it
  DeltaReport conflicts;
  auto merge = [&](const core::Json& delta, const std::string& who) -> core::Result<void> {
    for (const auto& [key, value] : delta.items()) {
      const Reducer reducer = reducer_for(graph_.settings().reducers, key);
      if (reducer == Reducer::kReplace) {
        auto [it, fresh] = writer.emplace(key, who);
        if (!fresh) {
          conflicts.add({node.name, "/" + key, "parallel_write",
                         "replace key \"" + key + "\" written by both " + it->second + " and " + who});
          continue;
        }
      }
      if (auto ok = reduce(reducer, step.delta[key], value, "/" + key); !ok) return ok;
    }
    return core::ok();
  };
  std::size_t merged = 0;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    if (outcomes[i].error) continue;
    if (auto ok = merge(deltas[merged++], node.name + "/" + outcomes[i].name); !ok) return ok.error();
  }
  if (node.combine) {
    core::Result<Delta> combined = [&]() -> core::Result<Delta> {
      try {
        return node.combine(StateView(cursor.state), outcomes, context);
      } catch (const std::exception& e) {
        return core::internal_error("combiner of " + node.name + " threw: " + e.what(), node.name);
      }
    }();
    if (!combined) return combined.error();
    if (!combined->json().is_object())
      return core::invalid_argument("combiner of " + node.name + " returned a non-object", node.name);
    if (auto ok = merge(combined->json(), node.name + " (combine)"); !ok) return ok.error();
  }
  if (!conflicts.ok()) return conflicts.error();
  if (DeltaReport report = validate_delta(graph_, node, node.name, step.delta); !report.ok())
    return report.error();

  core::Json failed = core::Json::array();
  for (const BranchOutcome& outcome : outcomes) {
    if (outcome.error) {
      core::Json entry = core::error_json(*outcome.error);
      entry["branch"] = outcome.name;
      failed.push_back(std::move(entry));
    }
  }
  if (!failed.empty()) step.metadata["branch_errors"] = std::move(failed);
  return step;
}

core::Result<void> Runner::commit(Cursor& cursor, CheckpointRecord record) {
  record.thread_id = cursor.thread_id;
  if (record.checkpoint_id.empty()) record.checkpoint_id = options_.ids->next();
  record.parent_id = cursor.head_id;
  record.step = cursor.step + 1;
  record.created_at = options_.clock->now();
  if (options_.checkpointer != nullptr) {
    if (auto ok = options_.checkpointer->append(record, cursor.head_id); !ok) return ok;
  }
  cursor.head_id = std::move(record.checkpoint_id);
  cursor.step = record.step;
  cursor.last_completed_node = std::move(record.last_completed_node);
  return core::ok();
}

core::Result<RunResult> Runner::drive(Cursor& cursor, std::string next) {
  const GraphSettings& settings = graph_.settings();
  auto finish = [&](RunStatus status) {
    RunResult result;
    result.status = status;
    result.thread_id = cursor.thread_id;
    result.checkpoint_id = cursor.head_id;
    result.step = cursor.step;
    result.last_completed_node = cursor.last_completed_node;
    result.state = JsonValue(cursor.state);
    return result;
  };
  auto fail = [&](const std::string& node, const core::Error& error,
                  std::string retry_node) -> core::Result<RunResult> {
    CheckpointRecord record;
    record.node = node;
    record.last_completed_node = cursor.last_completed_node;
    record.next_node = std::move(retry_node);
    record.status = CheckpointStatus::kFailed;
    record.metadata_json = core::Json{{"error", core::error_json(error)}}.dump();
    if (auto ok = commit(cursor, std::move(record)); !ok) return ok.error();
    emit(EventKind::kError, cursor, node, core::error_json(error));
    RunResult result = finish(RunStatus::kFailed);
    result.error = error;
    return result;
  };

  if (next == kEnd) {  // nothing left to run: mark the thread done
    CheckpointRecord record;
    record.node = std::string(kEnd);
    record.last_completed_node = cursor.last_completed_node;
    record.status = CheckpointStatus::kDone;
    if (auto ok = commit(cursor, std::move(record)); !ok) return ok.error();
    return finish(RunStatus::kDone);
  }

  for (std::int64_t steps = 0;; ++steps) {
    const CompiledNode* node = graph_.node(next);
    if (node == nullptr) return core::internal_error("route to unknown node \"" + next + "\"", next);
    if (steps >= options_.max_steps) {
      return fail(node->name,
                  core::failed_precondition("the run took more than " + std::to_string(options_.max_steps) +
                                                " steps; is there a cycle without an exit?",
                                            node->name),
                  node->name);
    }
    if (options_.stop != nullptr && options_.stop->cancelled()) {
      const core::Error stopped =
          core::unavailable("the run was stopped before node " + node->name, node->name);
      CheckpointRecord record;
      record.node = node->name;
      record.last_completed_node = cursor.last_completed_node;
      record.next_node = node->name;
      record.status = CheckpointStatus::kFailed;
      record.metadata_json = core::Json{{"error", core::error_json(stopped)}, {"stopped", true}}.dump();
      if (auto ok = commit(cursor, std::move(record)); !ok) return ok.error();
      RunResult result = finish(RunStatus::kFailed);
      result.error = stopped;
      return result;
    }
    emit(EventKind::kNodeStart, cursor, node->name, core::Json::object());

    // Run, validate, merge (keeping the old values, to undo on failure), then route.
    core::Result<StepOutcome> outcome = execute(cursor, *node);
    std::map<std::string, std::optional<core::Json>> previous;  // touched key -> old value (nullopt: unset)
    auto undo = [&] {
      for (auto& [key, value] : previous) {
        if (value) {
          cursor.state[key] = std::move(*value);
        } else {
          cursor.state.erase(key);
        }
      }
      previous.clear();
    };
    core::Result<std::string> route = std::string();
    bool interrupting = false;
    std::string asking_id;  // the id of the checkpoint that records a decision node's question
    if (outcome) {
      core::Json& delta = outcome->delta;
      interrupting = node->kind == NodeKind::kDecision && is_true(delta, settings.interrupt_key);
      const std::string& id_key = settings.checkpoint_id_key;
      if (interrupting && !id_key.empty()) {
        asking_id = options_.ids->next();
        delta[id_key] = asking_id;
      }
      if (!interrupting) {  // seed 003 §3: a stale prompt never survives a step that asks nothing
        for (const std::string* key : {&settings.message_key, &settings.prompt_key, &id_key}) {
          if (key->empty()) continue;
          auto current = cursor.state.find(*key);
          if (!delta.contains(*key) && current != cursor.state.end() && *current != "") delta[*key] = "";
        }
      }
      for (const auto& [key, value] : delta.items()) {
        auto current = cursor.state.find(key);
        if (current == cursor.state.end()) {
          previous.emplace(key, std::nullopt);
        } else {
          previous.emplace(key, *current);
        }
        if (auto ok = reduce(reducer_for(settings.reducers, key), cursor.state[key], value, "/" + key); !ok) {
          outcome = ok.error();
          break;
        }
      }
      if (outcome) {
        route = graph_.next_node(*node, StateView(cursor.state));
        if (!route) outcome = route.error();
      }
      if (!outcome) undo();
    }
    if (!outcome) {
      core::Error error = outcome.error();
      if (error.where.empty()) error.where = node->name;
      if (node->policy.error_route.empty()) return fail(node->name, error, node->name);
      CheckpointRecord record;
      record.node = node->name;
      record.last_completed_node = cursor.last_completed_node;
      record.next_node = node->policy.error_route;
      record.metadata_json =
          core::Json{{"error", core::error_json(error)}, {"error_route", node->policy.error_route}}.dump();
      if (auto ok = commit(cursor, std::move(record)); !ok) return ok.error();
      emit(EventKind::kError, cursor, node->name, core::error_json(error));
      next = node->policy.error_route;
      if (next == kEnd) return drive(cursor, next);
      continue;
    }

    core::Json& delta = outcome->delta;
    const CheckpointStatus status =
        interrupting ? CheckpointStatus::kInterrupted
                     : (*route == kEnd ? CheckpointStatus::kDone : CheckpointStatus::kRunning);
    CheckpointRecord record;
    record.checkpoint_id = std::move(asking_id);
    record.node = node->name;
    record.last_completed_node = node->name;
    record.next_node = *route == kEnd ? std::string() : *route;
    record.status = status;
    core::Json metadata = std::move(outcome->metadata);
    const std::string message = interrupting ? string_at(delta, settings.message_key) : std::string();
    const std::string prompt = interrupting ? string_at(delta, settings.prompt_key) : std::string();
    if (interrupting) {
      metadata["checkpoint_message"] = message;
      metadata["checkpoint_prompt"] = prompt;
    }
    record.metadata_json = metadata.dump();
    if (options_.checkpointer != nullptr) {
      for (const auto& [key, old] : previous) {
        const core::Json& value = cursor.state[key];
        if (old && *old == value) continue;  // only keys that changed are written
        const Reducer reducer = reducer_for(settings.reducers, key);
        if (reducer != Reducer::kAppend) {
          record.writes.push_back({key, WriteKind::kReplace, value.dump()});
          continue;
        }
        if (old) {
          record.writes.push_back(append_write(key, delta[key], value, cursor.pending, options_.chunk_every));
        } else {
          record.writes.push_back({key, WriteKind::kSnapshot, value.dump()});
          cursor.pending.erase(key);
        }
      }
    }
    if (auto ok = commit(cursor, std::move(record)); !ok) return ok.error();

    emit(EventKind::kUpdates, cursor, node->name, std::move(delta));  // the delta's last use
    if (options_.stream_values) emit(EventKind::kValues, cursor, node->name, cursor.state);
    emit(EventKind::kNodeEnd, cursor, node->name,
         core::Json{{"status", status_name(status)}, {"next", *route}});
    if (interrupting) {
      RunResult result = finish(RunStatus::kInterrupted);
      result.interrupt_node = node->name;
      result.message = message;
      result.prompt = prompt;
      emit(EventKind::kInterrupt, cursor, node->name,
           core::Json{{"message", result.message}, {"prompt", result.prompt}});
      return result;
    }
    if (*route == kEnd) return finish(RunStatus::kDone);
    next = *route;
  }
}

core::Result<RunResult> Runner::run(std::string_view thread_id, const JsonValue& input) {
  const GraphSettings& settings = graph_.settings();
  if (thread_id.empty()) return core::invalid_argument("a thread id is required");
  if (!input.json().is_object()) return core::invalid_argument("the input must be a JSON object", "");
  if (const contracts::Contract* contract = graph_.state_contract(); contract != nullptr) {
    if (contracts::ValidationReport report = contract->validate(input.json()); !report.ok())
      return report.error();
  }

  Cursor cursor;
  cursor.thread_id = std::string(thread_id);
  std::map<std::string, core::Json> previous;  // keys the input changes, as they were
  if (options_.checkpointer != nullptr) {
    core::Result<std::optional<CheckpointRecord>> head = options_.checkpointer->head(thread_id);
    if (!head) return head.error();
    if (*head) {
      const CheckpointRecord& record = **head;
      if (record.status == CheckpointStatus::kInterrupted || record.status == CheckpointStatus::kRunning) {
        return core::failed_precondition(
            "thread " + cursor.thread_id + " is " + status_name(record.status) + " at checkpoint " +
                record.checkpoint_id + ": " +
                (record.status == CheckpointStatus::kInterrupted ? "resume" : "recover") + " it instead",
            record.checkpoint_id);
      }
      core::Result<Cursor> loaded = load(thread_id, record);
      if (!loaded) return loaded.error();
      cursor = std::move(*loaded);
    }
  }

  CheckpointRecord record;
  record.node = std::string(kInputNode);
  record.last_completed_node = cursor.last_completed_node;
  record.next_node = graph_.entry();
  for (const auto& [key, value] : input.json().items()) {
    const Reducer reducer = reducer_for(settings.reducers, key);
    core::Json& target = cursor.state[key];
    if (auto ok = reduce(reducer, target, value, "/" + key); !ok) return ok.error();
    if (reducer == Reducer::kAppend) {
      record.writes.push_back({key, WriteKind::kSnapshot, target.dump()});
      cursor.pending.erase(key);
    } else {
      record.writes.push_back({key, WriteKind::kReplace, target.dump()});
    }
  }
  if (auto ok = commit(cursor, std::move(record)); !ok) return ok.error();
  emit(EventKind::kUpdates, cursor, kInputNode, input.json());
  return drive(cursor, graph_.entry());
}

core::Result<CheckpointRecord> Runner::require_head(std::string_view thread_id) {
  if (options_.checkpointer == nullptr) {
    return core::failed_precondition("this runner has no checkpointer, so threads cannot be resumed");
  }
  core::Result<std::optional<CheckpointRecord>> head = options_.checkpointer->head(thread_id);
  if (!head) return head.error();
  if (!*head)
    return core::not_found("unknown thread \"" + std::string(thread_id) + "\"", std::string(thread_id));
  return std::move(**head);
}

core::Result<Runner::Cursor> Runner::load(std::string_view thread_id, const CheckpointRecord& record) {
  core::Result<std::vector<StepWrite>> writes =
      options_.checkpointer->writes_for_state(thread_id, record.checkpoint_id);
  if (!writes) return writes.error();
  core::Result<core::Json> state = assemble_state(*writes);
  if (!state) return state.error();
  Cursor cursor;
  cursor.thread_id = std::string(thread_id);
  cursor.state = std::move(*state);
  cursor.head_id = record.checkpoint_id;
  cursor.step = record.step;
  cursor.last_completed_node = record.last_completed_node;
  cursor.pending = pending_appends(*writes);
  return cursor;
}

core::Result<RunResult> Runner::resume(std::string_view thread_id, std::string_view checkpoint_id,
                                       std::string_view answer) {
  core::Result<CheckpointRecord> head = require_head(thread_id);
  if (!head) return head.error();
  if (head->checkpoint_id != checkpoint_id) {
    const bool known = options_.checkpointer->get(thread_id, checkpoint_id).has_value();
    return core::Error{core::ErrorCode::kConflict,
                       std::string(known ? "stale" : "unknown") + " checkpoint " +
                           std::string(checkpoint_id) + " for thread " + std::string(thread_id) +
                           ": the head is " + head->checkpoint_id + "; reload the thread and decide again" +
                           (known ? ", or fork from the older checkpoint" : ""),
                       std::string(checkpoint_id)};
  }
  if (head->status != CheckpointStatus::kInterrupted) {
    return core::failed_precondition("checkpoint " + head->checkpoint_id + " of thread " +
                                         std::string(thread_id) + " does not await an answer (it is " +
                                         status_name(head->status) + ")",
                                     head->checkpoint_id);
  }
  core::Result<Cursor> cursor = load(thread_id, *head);
  if (!cursor) return cursor.error();

  const GraphSettings& settings = graph_.settings();
  core::Json delta;
  if (settings.answer) {
    core::Result<Delta> answered = settings.answer(StateView(cursor->state), answer);
    if (!answered) return answered.error();
    delta = std::move(answered->json());
  } else {
    delta = default_answer_delta(settings, answer);
  }
  if (const std::string& id_key = settings.checkpoint_id_key; !id_key.empty() && !delta.contains(id_key))
    delta[id_key] = "";  // the prompt it answered is closed
  if (const contracts::Contract* contract = graph_.state_contract(); contract != nullptr) {
    if (contracts::ValidationReport report = contract->validate(delta); !report.ok()) return report.error();
  }

  CheckpointRecord record;
  record.node = std::string(kResumeNode);
  record.last_completed_node = cursor->last_completed_node;
  record.next_node = head->next_node.empty() ? std::string(kEnd) : head->next_node;
  record.metadata_json = core::Json{{"answer_to", head->checkpoint_id}}.dump();
  PendingAppendsByKey pending = cursor->pending;
  core::Json next_state = cursor->state;
  for (const auto& [key, value] : delta.items()) {
    const Reducer reducer = reducer_for(settings.reducers, key);
    const bool existed = next_state.contains(key);
    core::Json& target = next_state[key];
    if (auto ok = reduce(reducer, target, value, "/" + key); !ok) return ok.error();
    if (reducer == Reducer::kAppend && existed) {
      record.writes.push_back(append_write(key, value, target, pending, options_.chunk_every));
    } else if (reducer == Reducer::kAppend) {
      record.writes.push_back({key, WriteKind::kSnapshot, target.dump()});
      pending.erase(key);
    } else {
      record.writes.push_back({key, WriteKind::kReplace, target.dump()});
    }
  }
  if (auto ok = commit(*cursor, record); !ok) return ok.error();
  cursor->state = std::move(next_state);
  cursor->pending = std::move(pending);
  emit(EventKind::kUpdates, *cursor, kResumeNode, std::move(delta));
  return drive(*cursor, record.next_node);
}

core::Result<RunResult> Runner::recover(std::string_view thread_id) {
  core::Result<CheckpointRecord> head = require_head(thread_id);
  if (!head) return head.error();
  if (head->status != CheckpointStatus::kRunning && head->status != CheckpointStatus::kFailed) {
    return core::failed_precondition("thread " + std::string(thread_id) + " is " + status_name(head->status) +
                                         " at checkpoint " + head->checkpoint_id + "; nothing to recover",
                                     head->checkpoint_id);
  }
  core::Result<Cursor> cursor = load(thread_id, *head);
  if (!cursor) return cursor.error();
  return drive(*cursor, head->next_node.empty() ? std::string(kEnd) : head->next_node);
}

core::Result<std::string> Runner::fork(std::string_view thread_id, std::string_view checkpoint_id,
                                       std::string_view new_thread_id) {
  if (options_.checkpointer == nullptr) return core::failed_precondition("this runner has no checkpointer");
  if (new_thread_id.empty()) return core::invalid_argument("a new thread id is required");
  core::Result<CheckpointRecord> source = options_.checkpointer->get(thread_id, checkpoint_id);
  if (!source) return source.error();
  core::Result<std::vector<StepWrite>> writes =
      options_.checkpointer->writes_for_state(thread_id, checkpoint_id);
  if (!writes) return writes.error();
  core::Result<std::vector<KeyWrite>> folded = fold_writes(*writes);
  if (!folded) return folded.error();

  CheckpointRecord record = *source;
  record.thread_id = std::string(new_thread_id);
  record.checkpoint_id = options_.ids->next();
  record.parent_id.clear();
  record.node = std::string(kForkNode);
  record.created_at = options_.clock->now();
  core::Json metadata = core::Json::parse(source->metadata_json, nullptr, false);
  if (!metadata.is_object()) metadata = core::Json::object();
  metadata["forked_from"] = {{"thread_id", std::string(thread_id)},
                             {"checkpoint_id", std::string(checkpoint_id)}};
  record.metadata_json = metadata.dump();
  record.writes = std::move(*folded);
  const std::string& id_key = graph_.settings().checkpoint_id_key;
  if (!id_key.empty() && record.status == CheckpointStatus::kInterrupted) {  // the copy asks under its own id
    for (KeyWrite& write : record.writes) {
      if (write.key == id_key) write = {id_key, WriteKind::kReplace, core::Json(record.checkpoint_id).dump()};
    }
  }
  if (auto ok = options_.checkpointer->append(record, ""); !ok) return ok.error();
  return record.checkpoint_id;
}

core::Result<JsonValue> Runner::state(std::string_view thread_id, std::string_view checkpoint_id) {
  core::Result<CheckpointRecord> record =
      checkpoint_id.empty() ? require_head(thread_id) : [&]() -> core::Result<CheckpointRecord> {
    if (options_.checkpointer == nullptr) return core::failed_precondition("this runner has no checkpointer");
    return options_.checkpointer->get(thread_id, checkpoint_id);
  }();
  if (!record) return record.error();
  core::Result<Cursor> cursor = load(thread_id, *record);
  if (!cursor) return cursor.error();
  return JsonValue(std::move(cursor->state));
}

core::Result<Delta> Runner::run_node(std::string_view node_name, const JsonValue& state) {
  const CompiledNode* node = graph_.node(node_name);
  if (node == nullptr) {
    std::string known;
    for (const CompiledNode& n : graph_.nodes()) known += (known.empty() ? "" : ", ") + n.name;
    return core::not_found(
        "graph " + graph_.name() + " has no node \"" + std::string(node_name) + "\" (nodes: " + known + ")",
        std::string(node_name));
  }
  if (!state.json().is_object()) return core::invalid_argument("the state must be a JSON object", "");
  if (const contracts::Contract* contract = graph_.state_contract(); contract != nullptr) {
    if (contracts::ValidationReport report = contract->validate(state.json()); !report.ok())
      return report.error();
  }
  Cursor cursor;
  cursor.thread_id = "run_node";
  cursor.state = state.json();
  core::Result<StepOutcome> outcome = execute(cursor, *node);
  if (!outcome) return outcome.error();
  return Delta(std::move(outcome->delta));
}

}  // namespace planfirst::graph
