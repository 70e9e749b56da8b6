#include "pipelines/sqlopt/plan_text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

namespace planfirst::sqlopt {
namespace {

bool collapsible(const PlanNode& node) {
  return (node.op == "PROJECTION") && node.children.size() == 1;
}

bool is_scan(const PlanNode& node) {
  return !node.table.empty();
}

std::string shortened(const std::string& text, std::size_t limit = 80) {
  std::string flat;
  for (char c : text) flat += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (flat.size() <= limit) return flat;
  return flat.substr(0, limit - 3) + "...";
}

std::string describe(const PlanNode& node, double total_ms) {
  std::string line = node.op;
  if (!node.join_type.empty()) line += " " + node.join_type;
  if (!node.table.empty()) line += " " + node.table;
  if (!node.cte_name.empty()) line += " [CTE " + node.cte_name + "]";
  if (!node.subplan_name.empty()) line += " [" + node.subplan_name + "]";
  if (!node.join_condition.empty()) line += " on " + shortened(node.join_condition);
  if (!node.filter.empty()) line += " filter " + shortened(node.filter);
  if (node.actual_rows) {
    if (is_scan(node) && node.rows_removed) {
      line += fmt::format(" | {} of {} rows", compact_count(*node.actual_rows),
                          compact_count(*node.actual_rows + *node.rows_removed));
    } else {
      line += fmt::format(" | {} rows", compact_count(*node.actual_rows));
    }
  } else {
    line += " | never executed";
  }
  if (node.est_rows)
    line += fmt::format(" (est {}{})", compact_count(*node.est_rows), node.est_clamped ? "+" : "");
  if (node.loops > 1) line += fmt::format(" x{} loops", compact_count(node.loops));
  const double share = total_ms > 0 ? 100.0 * node.exclusive_ms / total_ms : 0;
  line += fmt::format(" | {:.1f} ms {:.0f}%", node.exclusive_ms, share);
  if (!node.sort_method.empty()) line += " sort " + node.sort_method;
  if (node.sort_spilled) line += " SPILL";
  if (node.hash_batches && *node.hash_batches > 1) line += fmt::format(" batches {}", *node.hash_batches);
  if (node.workers && *node.workers > 0) line += fmt::format(" workers {}", *node.workers);
  if (node.shared_read_blocks && *node.shared_read_blocks > 0)
    line += fmt::format(" read {}", compact_count(*node.shared_read_blocks));
  if (node.temp_blocks && *node.temp_blocks > 0)
    line += fmt::format(" temp {}", compact_count(*node.temp_blocks));
  return line;
}

void draw(const PlanTree& plan, int id, const std::string& prefix, bool last, bool top,
          std::vector<std::string>& lines) {
  const PlanNode* node = &plan.nodes[static_cast<std::size_t>(id)];
  while (collapsible(*node)) node = &plan.nodes[static_cast<std::size_t>(node->children.front())];
  lines.push_back(prefix + (top ? "" : (last ? "`- " : "|- ")) + describe(*node, plan.total_ms));
  const std::string child_prefix = top ? "" : prefix + (last ? "   " : "|  ");
  for (std::size_t i = 0; i < node->children.size(); ++i)
    draw(plan, node->children[i], child_prefix, i + 1 == node->children.size(), false, lines);
}

}  // namespace

std::string compact_count(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude < 1000) return fmt::format("{:.0f}", value);
  if (magnitude < 1e6) return fmt::format("{:.1f}K", value / 1e3);
  if (magnitude < 1e9) return fmt::format("{:.1f}M", value / 1e6);
  if (magnitude < 1e12) return fmt::format("{:.1f}B", value / 1e9);
  return fmt::format("{:.1f}T", value / 1e12);
}

std::string render_plan_tree(const PlanTree& plan, int max_lines) {
  if (plan.empty()) return "(empty plan)\n";
  std::vector<std::string> lines;
  lines.push_back(fmt::format("{} plan, {:.1f} ms total", to_string(plan.engine), plan.total_ms));
  draw(plan, 0, "", true, true, lines);
  std::string out;
  const std::size_t cap = static_cast<std::size_t>(std::max(max_lines, 1));
  for (std::size_t i = 0; i < lines.size() && i < cap; ++i) out += lines[i] + "\n";
  if (lines.size() > cap)
    out += fmt::format("... {} more lines not shown ({}-line cap)\n", lines.size() - cap, cap);
  return out;
}

}  // namespace planfirst::sqlopt
