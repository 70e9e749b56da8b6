// CompiledGraph is a checked, immutable graph: nodes, edges and routers, the state and delta
// contracts, reducers and the interrupt keys, as GraphBuilder::compile() accepted them. Copies
// share one immutable body, so runners on many threads may use one graph at once.
// REQUIRES: the ContractRegistry it was compiled against outlives every copy.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/contract.hpp"
#include "core/result.hpp"
#include "graph/node.hpp"
#include "graph/reducer.hpp"

namespace planfirst::graph {

inline constexpr std::string_view kStart = "__start__";  // the virtual node before the entry
inline constexpr std::string_view kEnd = "__end__";      // route here to finish the run

// Chooses the next node from the state after a node's delta was merged; must return one of the
// targets declared with it (kEnd included).
using Router = std::function<core::Result<std::string>(const StateView&)>;

// The delta that merges a user's answer into the state on resume.
using AnswerFunction = std::function<core::Result<Delta>(const StateView&, std::string_view answer)>;

// Per-graph settings: every pipeline names its own contracts and keys.
struct GraphSettings {
  std::string description;
  std::string state_contract;              // contract of the whole state; empty: unchecked
  std::string delta_contract;              // contract of every node's delta; empty: only the checks below
  ReducerTable reducers;                   // keys not listed replace
  std::vector<std::string> common_writes;  // keys every node may write, e.g. "reasoning", "next_agent"
  std::string interrupt_key{kDefaultInterruptKey};
  std::string message_key = "checkpoint_message";
  std::string prompt_key = "checkpoint_prompt";
  // The state key the runtime keeps naming the open prompt's checkpoint (seed 003 §7.3): the id of the
  // checkpoint that records a decision node's question, "" after a step that asks nothing and on
  // resume, so a client never mistakes an answered prompt for the open one. Empty: not kept.
  std::string checkpoint_id_key;
  // Empty: the answer is appended to "messages" as {"role": "human", "content": answer}, and the
  // interrupt key is set false with message and prompt cleared.
  AnswerFunction answer;
};

struct CompiledNode {
  std::string name;
  NodeKind kind = NodeKind::kWorker;
  std::vector<std::string> writes;  // sorted, common keys included
  NodePolicy policy;
  NodeFunction function;  // plain nodes
  bool fan_out = false;
  BranchPlanner plan;  // fan-out nodes
  NodeFunction branch;
  FanOutCombiner combine;
  // Routing: exactly one of `next` (a static edge) or `router` with `targets`.
  std::string next;
  Router router;
  std::vector<std::string> targets;

  bool may_write(std::string_view key) const;
};

struct Edge {
  std::string from;
  std::string to;
  bool conditional = false;
  bool operator==(const Edge&) const = default;
};

class CompiledGraph {
 public:
  struct Body;  // defined in compiled_graph.cpp; built by GraphBuilder
  explicit CompiledGraph(std::shared_ptr<const Body> body) : body_(std::move(body)) {}

  const std::string& name() const;
  const GraphSettings& settings() const;
  const std::string& entry() const;
  const std::vector<CompiledNode>& nodes() const;         // in the order they were added
  const CompiledNode* node(std::string_view name) const;  // nullptr when absent
  std::vector<Edge> edges() const;                        // __start__ -> entry first, then by node order
  const contracts::Contract* state_contract() const;      // nullptr when unchecked
  const contracts::Contract* delta_contract() const;      // nullptr when unchecked

  // The node after `from` for `state`: its static edge, or its router's choice (kInvalidArgument
  // naming the node when the router picks an undeclared target). kEnd when the run is over.
  core::Result<std::string> next_node(const CompiledNode& from, const StateView& state) const;

 private:
  std::shared_ptr<const Body> body_;  // co-owned by every copy; immutable
};

}  // namespace planfirst::graph
