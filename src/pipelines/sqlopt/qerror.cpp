#include "pipelines/sqlopt/qerror.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace planfirst::sqlopt {

QError qerror_of(double estimate, double actual) {
  if (estimate <= 0 && actual <= 0) return {1, "ACCURATE"};
  if (estimate <= 0) return {actual, "ZERO"};
  if (actual <= 0) return {estimate, estimate >= kQErrorThreshold ? "OVER" : "ACCURATE"};
  const double q = std::max(estimate / actual, actual / estimate);
  if (q < kQErrorThreshold) return {q, "ACCURATE"};
  return {q, estimate > actual ? "OVER" : "UNDER"};
}

namespace {

OperatorQError measure(const PlanNode& node, const OperatorCatalog& catalog, Engine engine) {
  OperatorQError out;
  out.id = node.id;
  out.op = node.op;
  out.locus = catalog.locus(engine, node.op).value_or("UNKNOWN");
  if (catalog.reports_zero_rows(engine, node.op)) {
    out.direction = "NO_SIGNAL";
    out.no_signal = "reports no actual rows by design";
  } else if (!node.est_rows) {
    out.direction = "NO_SIGNAL";
    out.no_signal = "no estimate";
  } else if (!node.actual_rows) {
    out.direction = "NO_SIGNAL";
    out.no_signal = "never executed";
  } else if (node.est_clamped) {
    out.direction = "NO_SIGNAL";
    out.no_signal = "sentinel estimate";
  } else {
    const QError q = qerror_of(*node.est_rows, *node.actual_rows);
    out.q = q.q;
    out.direction = q.direction;
  }
  return out;
}

std::vector<std::string> structural_flags(const PlanTree& plan, const OperatorCatalog& catalog,
                                          const std::vector<OperatorQError>& measured) {
  std::set<std::string> flags;
  std::map<std::string, int> scans;
  for (const PlanNode& node : plan.nodes) {
    const std::string locus = catalog.locus(plan.engine, node.op).value_or("");
    if (locus == "SCAN" && !node.table.empty()) {
      const std::string table = node.table.substr(0, node.table.find(' '));
      ++scans[table];
    }
    if (node.relationship == "SubPlan") flags.insert("CORRELATED_SUBPLAN");
    if (node.op == "DELIM_SCAN" || node.op.find("DELIM_JOIN") != std::string::npos)
      flags.insert("DELIM_SCAN");
    if (node.sort_spilled) flags.insert("DISK_SORT");
    if (node.hash_batches && *node.hash_batches > 1) flags.insert("HASH_BATCHES");
    if (node.loops >= catalog.many_loops_min(plan.engine) && node.parent >= 0) {
      const PlanNode& parent = plan.nodes[static_cast<std::size_t>(node.parent)];
      if (parent.op == "Nested Loop" || parent.op == "NESTED_LOOP_JOIN")
        flags.insert("NESTED_LOOP_MANY_LOOPS");
    }
  }
  for (const auto& [table, count] : scans)
    if (count >= catalog.repeated_scan_min(plan.engine)) flags.insert("REPEATED_TABLE_SCAN");
  for (const OperatorQError& q : measured)
    if (q.direction == "ZERO") flags.insert("EST_ZERO");
  return {flags.begin(), flags.end()};
}

}  // namespace

const OperatorQError* QErrorReport::worst_operator() const {
  if (!worst) return nullptr;
  for (const OperatorQError& op : operators)
    if (op.id == *worst) return &op;
  return nullptr;
}

core::Json QErrorReport::to_json() const {
  core::Json ops = core::Json::array();
  for (const OperatorQError& op : operators) {
    core::Json item = {{"id", op.id}, {"operator", op.op}, {"locus", op.locus}, {"direction", op.direction}};
    if (op.q) item["q"] = *op.q;
    if (!op.no_signal.empty()) item["no_signal"] = op.no_signal;
    ops.push_back(std::move(item));
  }
  core::Json routes_json = core::Json::array();
  for (const QErrorRoute& route : routes) {
    routes_json.push_back({{"operator", route.operator_id},
                           {"direction", route.direction},
                           {"locus", route.locus},
                           {"pathology", route.pathology},
                           {"transforms", route.transforms}});
  }
  core::Json out = {{"operators", std::move(ops)},
                    {"routes", std::move(routes_json)},
                    {"flags", flags},
                    {"unknown_operators", unknown_operators}};
  if (const OperatorQError* w = worst_operator()) {
    out["max_q"] = *w->q;
    out["worst"] = {{"id", w->id}, {"operator", w->op}, {"locus", w->locus}, {"direction", w->direction}};
  } else {
    out["max_q"] = nullptr;
    out["worst"] = nullptr;
  }
  return out;
}

std::string QErrorReport::to_prompt_text() const {
  std::string out;
  if (const OperatorQError* w = worst_operator()) {
    out +=
        fmt::format("Worst misestimate: {} at {} (operator #{} {})\n", w->direction, w->locus, w->id, w->op);
  } else {
    out += "No operator has a usable estimate.\n";
  }
  for (const QErrorRoute& route : routes) {
    out += fmt::format("- {} + {} (operator #{}): {} -> {}\n", route.direction, route.locus,
                       route.operator_id, route.pathology, fmt::join(route.transforms, ", "));
  }
  if (!flags.empty()) out += fmt::format("Structural flags: {}\n", fmt::join(flags, ", "));
  if (!unknown_operators.empty())
    out += fmt::format("Unknown operators: {}\n", fmt::join(unknown_operators, ", "));
  return out;
}

core::Result<QErrorRouting> QErrorRouting::load(const core::AssetStore& assets) {
  core::Result<core::Json> json = read_json_asset(assets, "sqlopt/qerror_routing.json");
  if (!json) return json.error();
  return from_json(*json);
}

core::Result<QErrorRouting> QErrorRouting::from_json(const core::Json& json) {
  QErrorRouting routing;
  if (!json.contains("routes") || !json["routes"].is_array())
    return core::invalid_argument("missing \"routes\" array", "/routes");
  for (std::size_t i = 0; i < json["routes"].size(); ++i) {
    const core::Json& item = json["routes"][i];
    const std::string pointer = "/routes/" + std::to_string(i);
    if (!item.is_object() || !item.contains("direction") || !item.contains("locus") ||
        !item.contains("transforms"))
      return core::invalid_argument("a route needs direction, locus and transforms", pointer);
    QErrorRoute route;
    route.direction = item.value("direction", "");
    route.locus = item.value("locus", "");
    route.pathology = item.value("pathology", "");
    for (const core::Json& t : item["transforms"])
      if (t.is_string()) route.transforms.push_back(t.get<std::string>());
    routing.routes_.push_back(std::move(route));
  }
  return routing;
}

std::optional<QErrorRoute> QErrorRouting::route(const std::string& direction,
                                                const std::string& locus) const {
  for (const QErrorRoute& r : routes_)
    if (r.direction == direction && r.locus == locus) return r;
  return std::nullopt;
}

QErrorReport analyze_qerror(const PlanTree& plan, const OperatorCatalog& catalog,
                            const QErrorRouting& routing) {
  QErrorReport report;
  std::set<std::string> unknown;
  std::optional<double> worst_q;
  for (const PlanNode& node : plan.nodes) {
    OperatorQError q = measure(node, catalog, plan.engine);
    if (q.locus == "UNKNOWN") unknown.insert(node.op);
    if (q.q && (!worst_q || *q.q > *worst_q)) {
      worst_q = q.q;
      report.worst = q.id;
    }
    report.operators.push_back(std::move(q));
  }
  // Routes: each direction x locus with a misestimate, ordered by its worst q (then plan order).
  std::vector<const OperatorQError*> signals;
  for (const OperatorQError& q : report.operators)
    if (q.q && q.direction != "ACCURATE") signals.push_back(&q);
  std::stable_sort(signals.begin(), signals.end(),
                   [](const OperatorQError* a, const OperatorQError* b) { return *a->q > *b->q; });
  std::set<std::pair<std::string, std::string>> seen;
  for (const OperatorQError* q : signals) {
    if (!seen.insert({q->direction, q->locus}).second) continue;
    if (std::optional<QErrorRoute> route = routing.route(q->direction, q->locus)) {
      route->operator_id = q->id;
      report.routes.push_back(std::move(*route));
    }
  }
  report.flags = structural_flags(plan, catalog, report.operators);
  report.unknown_operators.assign(unknown.begin(), unknown.end());
  return report;
}

}  // namespace planfirst::sqlopt
