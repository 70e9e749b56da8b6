// Fuzzes the plan readers (PostgreSQL EXPLAIN JSON and DuckDB JSON profiles) and what reads their
// trees: never a crash or a throw, the same answer twice, a message on every error, and a tree whose
// ids, parents and children agree.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pipelines/sqlopt/plan_reader.hpp"
#include "pipelines/sqlopt/plan_text.hpp"
#include "pipelines/sqlopt/qerror.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace planfirst::sqlopt;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto first = read_plan_text(text, "fuzz.json");
  const auto second = read_plan_text(text, "fuzz.json");
  if (first.has_value() != second.has_value()) __builtin_trap();
  if (!first) {
    if (first.error().message.empty() || first.error().describe() != second.error().describe())
      __builtin_trap();
    return 0;
  }
  const PlanTree& plan = *first;
  for (std::size_t i = 0; i < plan.nodes.size(); ++i) {
    const PlanNode& node = plan.nodes[i];
    if (node.id != static_cast<int>(i)) __builtin_trap();
    for (int child : node.children) {
      if (child <= node.id || child >= static_cast<int>(plan.nodes.size())) __builtin_trap();
      if (plan.nodes[static_cast<std::size_t>(child)].parent != node.id) __builtin_trap();
    }
  }
  if (!plan.empty() && render_plan_tree(plan) != render_plan_tree(*second)) __builtin_trap();
  static const auto catalog = OperatorCatalog::load(planfirst::core::AssetStore());
  static const auto routing = QErrorRouting::load(planfirst::core::AssetStore());
  if (!catalog || !routing) __builtin_trap();
  const QErrorReport report = analyze_qerror(plan, *catalog, *routing);
  if (report.operators.size() != plan.nodes.size()) __builtin_trap();
  return 0;
}
