#include "graph/delta_validator.hpp"

#include <nlohmann/json.hpp>
#include <set>

namespace planfirst::graph {

std::string DeltaViolation::describe() const {
  return "node " + node + ": " + (pointer.empty() ? "/" : pointer) + " [" + keyword + "] " + message;
}

std::string DeltaReport::describe() const {
  std::string text;
  for (const DeltaViolation& violation : violations_) text += violation.describe() + "\n";
  return text;
}

core::Error DeltaReport::error() const {
  std::string message = "invalid delta:";
  for (const DeltaViolation& violation : violations_) message += "\n  " + violation.describe();
  const DeltaViolation& first = violations_.front();
  return core::invalid_argument(std::move(message), first.node + first.pointer);
}

DeltaReport validate_delta(const CompiledGraph& graph, const CompiledNode& node, std::string_view node_path,
                           const core::Json& delta, DeltaScope scope) {
  DeltaReport report;
  const std::string path(node_path);
  if (!delta.is_object()) {
    report.add({path, "", "type", std::string("a delta must be a JSON object, not ") + delta.type_name()});
    return report;
  }

  std::set<std::string> flagged;   // pointers the contract already reported as unwanted
  std::set<std::string> reported;  // every pointer the contract reported: the checks below skip them
  const contracts::Contract* contract =
      scope == DeltaScope::kNode ? graph.delta_contract() : graph.state_contract();
  if (contract != nullptr) {
    const contracts::ValidationReport checked = contract->validate(delta);
    for (const contracts::Violation& violation : checked.violations()) {
      if (violation.keyword == "additionalProperties") flagged.insert(violation.pointer);
      reported.insert(violation.pointer);
      report.add({path, violation.pointer, violation.keyword, violation.message});
    }
  }

  const GraphSettings& settings = graph.settings();
  for (const auto& [key, value] : delta.items()) {
    const std::string pointer = "/" + key;
    // Seed 003 §3: any node may clear the prompt keys; only decision nodes may set them.
    const bool clears_prompt = (key == settings.message_key || key == settings.prompt_key) && value == "";
    if (!clears_prompt && !node.may_write(key) && flagged.count(pointer) == 0) {
      report.add(
          {path, pointer, "undeclared_write", "node " + node.name + " does not declare key \"" + key + "\""});
    }
  }

  auto interrupt = delta.find(settings.interrupt_key);
  if (interrupt != delta.end() && *interrupt == true) {
    if (node.kind != NodeKind::kDecision || scope == DeltaScope::kBranch) {
      report.add(
          {path, "/" + settings.interrupt_key, "checkpoint_policy",
           "only decision nodes may set " + settings.interrupt_key + " true; " + node.name + " is not one"});
    } else {
      auto prompt = delta.find(settings.prompt_key);
      const bool missing =
          prompt == delta.end() || !prompt->is_string() || prompt->get_ref<const std::string&>().empty();
      if (missing && reported.count("/" + settings.prompt_key) == 0) {
        report.add({path, "/" + settings.prompt_key, "checkpoint_policy",
                    "a decision node that sets " + settings.interrupt_key + " true must set a non-empty " +
                        settings.prompt_key});
      }
    }
  }
  return report;
}

}  // namespace planfirst::graph
