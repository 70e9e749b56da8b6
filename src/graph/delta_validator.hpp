// validate_delta checks a node's delta before anything is merged or persisted: the graph's delta
// contract (unknown keys, wrong types, illegal enum values such as a task status), keys the node
// did not declare, and seed 003's checkpoint policy (only decision nodes set the interrupt key
// true, and then with a prompt). Every violation names the node path and the JSON pointer.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "graph/compiled_graph.hpp"

namespace planfirst::graph {

struct DeltaViolation {
  std::string node;     // node path, e.g. "prepare" or "fan_out/b2"
  std::string pointer;  // RFC 6901 pointer into the delta, e.g. "/plan_tasks/0/status"
  std::string keyword;  // schema keyword, or "undeclared_write", "checkpoint_policy", "parallel_write"
  std::string message;

  std::string describe() const;  // "node prepare: /plan_tasks/0/status [enum] ..."
  bool operator==(const DeltaViolation&) const = default;
};

class DeltaReport {
 public:
  DeltaReport() = default;
  explicit DeltaReport(std::vector<DeltaViolation> violations) : violations_(std::move(violations)) {}

  bool ok() const { return violations_.empty(); }
  const std::vector<DeltaViolation>& violations() const { return violations_; }
  void add(DeltaViolation violation) { violations_.push_back(std::move(violation)); }
  std::string describe() const;  // one violation per line
  // kInvalidArgument with every violation; where = "<node><pointer>" of the first. REQUIRES: !ok().
  core::Error error() const;

 private:
  std::vector<DeltaViolation> violations_;
};

enum class DeltaScope {
  kNode,    // a node's whole delta: checked against the graph's delta contract
  kBranch,  // one fan-out branch's part: checked key by key against the state contract
};

DeltaReport validate_delta(const CompiledGraph& graph, const CompiledNode& node, std::string_view node_path,
                           const core::Json& delta, DeltaScope scope = DeltaScope::kNode);

}  // namespace planfirst::graph
