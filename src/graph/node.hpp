// A node is a named function from a read-only state view to a delta (a JSON object of only the
// keys it changed), with the keys it may write, whether it is a decision node (the only kind that
// may pause the run for user input) and its policies. One instance serves every run: a node keeps
// nothing between calls; time, ids and progress reporting come from its NodeContext.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.hpp"
#include "core/ids.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "graph/json_value.hpp"

namespace planfirst::graph {

// A node's output: a JSON object holding only what changed. Validated before it is merged.
using Delta = JsonValue;

// The state key a decision node sets true to pause for the user, unless a graph names another
// (GraphSettings::interrupt_key).
inline constexpr std::string_view kDefaultInterruptKey = "requires_user_input";

// A worker's delta: `fields` (a JSON object) with kDefaultInterruptKey set false, since a worker
// never asks for input.
Delta worker_delta(core::Json fields);

// What a node may read: the state as of the step it runs in. Borrowed; valid during the call only.
class StateView {
 public:
  explicit StateView(const core::Json& state) : state_(state) {}
  const core::Json& json() const { return state_; }
  bool has(std::string_view key) const;
  // The member `key`, or a JSON null when the state lacks it (or is not an object).
  const core::Json& member_or_null(std::string_view key) const;
  std::string string_or(std::string_view key, std::string_view fallback) const;
  std::int64_t int_or(std::string_view key, std::int64_t fallback) const;
  bool bool_or(std::string_view key, bool fallback) const;

 private:
  const core::Json& state_;
};

// What the runtime lends a node for one call. Everything borrowed outlives the call.
struct NodeContext {
  std::string thread_id;
  std::string node_path;  // "supervisor", or "fan_out/b2" for a fan-out branch
  int attempt = 1;        // 1 for the first call, 2 for the first retry, ...
  const core::Clock* clock = nullptr;
  core::IdGenerator* ids = nullptr;
  const JsonValue* branch_input = nullptr;  // a fan-out branch's input; nullptr for a plain node
  std::size_t branch_index = 0;
  std::function<void(std::string_view)> progress;  // sends a `progress` event; may be empty

  void report_progress(std::string_view message) const {
    if (progress) progress(message);
  }
};

using NodeFunction = std::function<core::Result<Delta>(const StateView&, const NodeContext&)>;

// How the runtime calls a node. Only kUnavailable failures (a timeout is one) are retried.
struct NodePolicy {
  int max_attempts = 1;  // 1: no retry
  std::chrono::milliseconds initial_backoff{100};
  double backoff_multiplier = 2.0;
  std::chrono::milliseconds max_backoff{10'000};
  std::optional<std::chrono::milliseconds> timeout;  // per attempt; unset: no limit
  std::string error_route;  // node that runs when every attempt failed; empty: the run fails
};

enum class NodeKind {
  kWorker,    // must set the interrupt key false; the runtime clears stale prompts after it
  kDecision,  // proposes, and may set the interrupt key true to await the user (once per call)
};

struct NodeSpec {
  std::string name;
  NodeFunction function;
  std::vector<std::string> writes;  // keys the node may write besides the graph's common keys
  NodeKind kind = NodeKind::kWorker;
  NodePolicy policy;

  NodeSpec with_policy(NodePolicy p) && {
    policy = std::move(p);
    return std::move(*this);
  }
};

NodeSpec worker_node(std::string name, NodeFunction function, std::vector<std::string> writes = {});
NodeSpec decision_node(std::string name, NodeFunction function, std::vector<std::string> writes = {});

// A fan-out node runs one branch per input of `plan` on the runtime's thread pool, merges the
// branches' deltas in branch order (append keys concatenate, merge-by-id keys merge, a replace key
// written by two branches is an error), then merges `combine`'s delta (if any) as the node's delta.
struct BranchOutcome {
  std::string name;                  // the input's "id" when it has a string one, else its index
  std::optional<core::Error> error;  // set when the branch failed; its delta is then left out
};
using BranchPlanner =
    std::function<core::Result<std::vector<JsonValue>>(const StateView&, const NodeContext&)>;
using FanOutCombiner = std::function<core::Result<Delta>(const StateView&, const std::vector<BranchOutcome>&,
                                                         const NodeContext&)>;

struct FanOutSpec {
  std::string name;
  BranchPlanner plan;
  NodeFunction branch;     // called with NodeContext::branch_input set
  FanOutCombiner combine;  // may be empty: the merged branch deltas are then the node's delta
  std::vector<std::string> writes;
  NodePolicy policy;  // applies to each branch call
};

}  // namespace planfirst::graph
