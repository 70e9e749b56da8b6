#include "pipelines/sqlopt/findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace planfirst::sqlopt {
namespace {

std::vector<int> nodes_where(const PlanTree& plan, auto&& predicate) {
  std::vector<int> ids;
  for (const PlanNode& node : plan.nodes)
    if (predicate(node)) ids.push_back(node.id);
  return ids;
}

bool is_subplan_operator(const PlanNode& node) {
  return node.relationship == "SubPlan" || node.op == "DELIM_SCAN" ||
         node.op.find("DELIM_JOIN") != std::string::npos;
}

std::string base_table(const std::string& table) {
  return table.substr(0, table.find(' '));
}

class Detector {
 public:
  Detector(const PlanTree& plan, const QErrorReport& qerror, const LogicTree& logic,
           const EngineProfile& profile)
      : plan_(plan), qerror_(qerror), logic_(logic), profile_(profile) {}

  FindingsReport run() {
    decorrelation();
    single_pass();
    cte_pushdown();
    unions();
    late_binding();
    self_joins();
    windows();
    routed();
    return std::move(report_);
  }

 private:
  void add(std::string transform, std::vector<int> operators, std::string evidence, std::string span) {
    report_.findings.push_back(
        {std::move(transform), std::move(operators), std::move(evidence), std::move(span)});
  }

  // Whether a strength of the engine covers `node` for `transform`; if so, it is noted.
  bool left_to_optimizer(const std::string& transform, const LogicNode& node) {
    const Strength* strength = profile_.strength_covering(transform, node);
    if (strength == nullptr) return false;
    report_.left_to_optimizer.push_back(
        {transform, strength->id, strength->claim, node.id, logic_.span_text(node)});
    return true;
  }

  bool has(const std::string& transform) const {
    return std::any_of(report_.findings.begin(), report_.findings.end(),
                       [&](const Finding& f) { return f.transform == transform; });
  }

  void decorrelation() {
    const std::vector<int> subplans = nodes_where(plan_, is_subplan_operator);
    for (const LogicNode& node : logic_.nodes) {
      if (node.kind != "subquery" || node.placement == "from") continue;
      const bool exists_like = node.sublink == "EXISTS" || node.sublink == "NOT EXISTS" ||
                               node.sublink == "IN" || node.sublink == "NOT IN";
      if (exists_like && !node.top_level_conjunct && node.placement == "where") {
        add("exists_restructuring", subplans,
            fmt::format("{} subquery under OR/CASE in {}: the optimizer cannot turn it into a semi-join",
                        node.sublink, node.placement),
            logic_.span_text(node));
      }
      if (!node.correlated) continue;
      // The plan confirms the strength: no operator runs the subquery per outer row.
      if (subplans.empty() && left_to_optimizer("decorrelation", node)) continue;
      add("decorrelation", subplans,
          fmt::format("correlated {} subquery in {} on [{}]{}", node.sublink, node.placement,
                      fmt::join(node.outer_references, ", "),
                      subplans.empty()
                          ? ""
                          : fmt::format("; the plan runs it per outer row ({} operators)", subplans.size())),
          logic_.span_text(node));
    }
  }

  void single_pass() {
    std::map<std::string, std::vector<const LogicNode*>> by_table;
    for (const LogicNode& node : logic_.nodes) {
      if (node.kind != "subquery" || node.correlated || node.tables.size() != 1 || node.aggregates.empty())
        continue;
      if (node.has_group_by || node.has_limit || node.sublink != "SCALAR") continue;
      by_table[base_table(node.tables.front())].push_back(&node);
    }
    for (const auto& [table, nodes] : by_table) {
      if (static_cast<int>(nodes.size()) < profile_.gates.single_pass_min_subqueries) continue;
      const std::vector<int> scans =
          nodes_where(plan_, [&](const PlanNode& n) { return base_table(n.table) == table; });
      add("single_pass_aggregation", scans,
          fmt::format(
              "{} scalar aggregate subqueries each scan {}; one scan with FILTER/CASE aggregates serves all",
              nodes.size(), table),
          logic_.span_text(*nodes.front()));
    }
    std::map<std::string, int> union_tables;
    for (const LogicNode& node : logic_.nodes)
      if (node.kind == "branch" && node.tables.size() == 1 && !node.aggregates.empty())
        ++union_tables[base_table(node.tables.front())];
    for (const auto& [table, count] : union_tables) {
      if (count < 2) continue;
      add("scan_consolidation_pivot",
          nodes_where(plan_, [&](const PlanNode& n) { return base_table(n.table) == table; }),
          fmt::format("{} set-operation branches aggregate the same table {}", count, table), {});
    }
  }

  void cte_pushdown() {
    const LogicNode* main = logic_.find("main");
    for (const LogicNode& node : logic_.nodes) {
      if (node.kind != "cte" || node.references < 1 || main == nullptr || !main->has_where) continue;
      const std::string name = node.id.substr(4);
      const std::vector<int> materialized = nodes_where(plan_, [&](const PlanNode& n) {
        return n.cte_name == name || n.subplan_name == "CTE " + name || n.op == "CTE_SCAN" || n.op == "CTE";
      });
      // The plan confirms the strength: no operator materializes the CTE.
      if (materialized.empty() && left_to_optimizer("global_predicate_pushdown", node)) continue;
      add("global_predicate_pushdown", materialized,
          fmt::format(
              "CTE {} is referenced {} times, so it is materialized whole before the outer WHERE filters it",
              name, node.references),
          logic_.span_text(node));
    }
  }

  void unions() {
    for (const LogicNode& node : logic_.nodes) {
      if (node.set_operation != "UNION") continue;
      add("union_consolidation",
          nodes_where(plan_,
                      [](const PlanNode& n) {
                        return n.op == "Unique" || n.op == "HashSetOp" || n.op == "UNION" ||
                               n.op == "Append" || (n.op == "HASH_GROUP_BY" && n.parent < 0);
                      }),
          "UNION removes duplicates across branches; when the branches are disjoint UNION ALL returns the "
          "same rows",
          logic_.span_text(node));
    }
  }

  void late_binding() {
    const LogicNode* main = logic_.find("main");
    if (main == nullptr || !main->has_order_by || !main->has_limit || main->joins.empty()) return;
    // Gate: only a sort that many joined rows enter is worth binding late.
    std::vector<int> sorts;
    double rows_in = 0;
    for (const PlanNode& n : plan_.nodes) {
      if (n.op != "Sort" && n.op != "Incremental Sort" && n.op != "TOP_N" && n.op != "ORDER_BY") continue;
      double entering = 0;
      for (int child : n.children) entering += plan_.nodes[child].actual_rows.value_or(0);
      if (entering < profile_.gates.late_binding_min_sort_rows) continue;
      sorts.push_back(n.id);
      rows_in = std::max(rows_in, entering);
    }
    if (sorts.empty()) return;
    add("late_attribute_binding", sorts,
        fmt::format("ORDER BY ... LIMIT over {} joined tables: {:.0f} joined rows enter the sort before the "
                    "limit keeps a few",
                    main->tables.size(), rows_in),
        {});
  }

  void self_joins() {
    for (const LogicNode& node : logic_.nodes) {
      std::map<std::string, int> count;
      for (const std::string& table : node.tables) ++count[base_table(table)];
      for (const auto& [table, n] : count) {
        if (n < 2 || node.joins.empty()) continue;
        add("self_join_elimination",
            nodes_where(plan_, [&](const PlanNode& p) { return base_table(p.table) == table; }),
            fmt::format("{} joins table {} to itself {} times", node.id, table, n), {});
      }
    }
  }

  void windows() {
    for (const LogicNode& node : logic_.nodes) {
      if (!node.has_window) continue;
      const std::vector<int> sorts = nodes_where(plan_, [](const PlanNode& n) { return n.sort_spilled; });
      if (sorts.empty()) continue;
      add("window_optimization", sorts, fmt::format("window functions in {} sort on disk", node.id), {});
    }
  }

  // The Q-error routes of the worst misestimate name transforms not yet found; the engine's strengths
  // come last. Gate: the misestimated operator produced enough rows to matter.
  void routed() {
    if (qerror_.routes.empty()) return;
    const QErrorRoute& route = qerror_.routes.front();
    const auto id = static_cast<std::size_t>(route.operator_id);
    if (id >= plan_.nodes.size() ||
        plan_.nodes[id].actual_rows.value_or(0) < profile_.gates.route_min_actual_rows)
      return;
    const std::string& op = plan_.nodes[id].op;
    std::vector<std::string> ranked = route.transforms;
    std::stable_partition(ranked.begin(), ranked.end(),
                          [&](const std::string& t) { return !profile_.is_strength(t); });
    for (const std::string& transform : ranked) {
      if (has(transform)) continue;
      add(transform, {route.operator_id},
          fmt::format("Q-error routing: {} at {} (operator #{} {}): {}", route.direction, route.locus,
                      route.operator_id, op, route.pathology),
          {});
      report_.findings.back().routed = true;
      break;  // the first route is the hypothesis; the rest stay in the q-error report
    }
  }

  const PlanTree& plan_;
  const QErrorReport& qerror_;
  const LogicTree& logic_;
  const EngineProfile& profile_;
  FindingsReport report_;
};

}  // namespace

const std::vector<std::string>& transform_ids() {
  static const std::vector<std::string> ids = {"global_predicate_pushdown",
                                               "transitive_predicate_propagation",
                                               "null_rejecting_join_simplification",
                                               "self_join_elimination",
                                               "decorrelation",
                                               "aggregate_pushdown",
                                               "late_attribute_binding",
                                               "star_join_prefetch",
                                               "single_pass_aggregation",
                                               "scan_consolidation_pivot",
                                               "union_consolidation",
                                               "window_optimization",
                                               "exists_restructuring"};
  return ids;
}

std::string transform_category(const std::string& transform) {
  const auto& ids = transform_ids();
  const auto it = std::find(ids.begin(), ids.end(), transform);
  if (it == ids.end()) return {};
  const auto index = it - ids.begin();
  if (index < 3) return "predicate_movement";
  if (index < 7) return "join_restructuring";
  if (index < 10) return "scan_optimization";
  return "structural";
}

core::Json Finding::to_json() const {
  return {{"transform", transform}, {"operators", operators}, {"evidence", evidence}, {"sql_span", sql_span}};
}

core::Json LeftToOptimizer::to_json() const {
  return {{"transform", transform},
          {"strength", strength},
          {"claim", claim},
          {"node", node},
          {"sql_span", sql_span}};
}

FindingsReport detect_findings(const PlanTree& plan, const QErrorReport& qerror, const LogicTree& logic,
                               const EngineProfile& profile) {
  return Detector(plan, qerror, logic, profile).run();
}

}  // namespace planfirst::sqlopt
