#include "pipelines/sqlopt/plan_reader.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "pipelines/sqlopt/sql_statement.hpp"

namespace planfirst::sqlopt {
namespace {

using core::Json;
using core::Result;

constexpr int kMaxDepth = 500;  // deeper plans are refused, not recursed into

// Strings and arrays of strings as one text ("a AND b" for a list of filters).
std::string text_of(const Json& value, std::string_view separator) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number()) return value.dump();
  if (!value.is_array()) return {};
  std::string out;
  for (const Json& item : value) {
    const std::string part = text_of(item, separator);
    if (part.empty()) continue;
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

std::string trimmed(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

class Fields {
 public:
  Fields(const Json& object, std::string pointer) : object_(object), pointer_(std::move(pointer)) {}

  Result<std::optional<double>> number(const char* key) const {
    auto it = object_.find(key);
    if (it == object_.end() || it->is_null()) return std::optional<double>();
    if (!it->is_number()) return core::invalid_argument("expected a number", pointer_ + "/" + key);
    const double value = it->get<double>();
    if (!std::isfinite(value) || value < 0) {
      return core::invalid_argument("expected a finite number >= 0", pointer_ + "/" + key);
    }
    return std::optional<double>(value);
  }
  std::string string(const char* key) const {
    auto it = object_.find(key);
    return it == object_.end() ? std::string() : trimmed(text_of(*it, " AND "));
  }
  bool boolean(const char* key) const {
    auto it = object_.find(key);
    return it != object_.end() && it->is_boolean() && it->get<bool>();
  }
  const std::string& pointer() const { return pointer_; }

 private:
  const Json& object_;
  std::string pointer_;
};

// Fills inclusive times bottom-up (DuckDB) or exclusive times (PostgreSQL), children after parents.
void fill_exclusive(PlanTree& tree) {
  for (PlanNode& node : tree.nodes) {
    double below = 0;
    for (int child : node.children) below += tree.nodes[static_cast<std::size_t>(child)].inclusive_ms;
    node.exclusive_ms = std::max(0.0, node.inclusive_ms - below);
  }
}

void fill_inclusive(PlanTree& tree) {
  for (auto it = tree.nodes.rbegin(); it != tree.nodes.rend(); ++it) {
    it->inclusive_ms = it->exclusive_ms;
    for (int child : it->children)
      it->inclusive_ms += tree.nodes[static_cast<std::size_t>(child)].inclusive_ms;
  }
}

// ---- PostgreSQL -------------------------------------------------------------------------------

Result<int> read_pg_node(const Json& json, const std::string& pointer, int parent, bool parallel, int depth,
                         PlanTree& tree) {
  if (depth > kMaxDepth) return core::invalid_argument("plan nested deeper than 500 levels", pointer);
  if (!json.is_object()) return core::invalid_argument("expected a plan node object", pointer);
  const Fields f(json, pointer);
  PlanNode node;
  node.id = static_cast<int>(tree.nodes.size());
  node.parent = parent;
  node.op = f.string("Node Type");
  if (node.op.empty()) return core::invalid_argument("plan node without \"Node Type\"", pointer);
  Result<std::optional<double>> plan_rows = f.number("Plan Rows");
  Result<std::optional<double>> actual_rows = f.number("Actual Rows");
  Result<std::optional<double>> loops = f.number("Actual Loops");
  Result<std::optional<double>> total_time = f.number("Actual Total Time");
  for (const auto* r : {&plan_rows, &actual_rows, &loops, &total_time})
    if (!*r) return r->error();
  node.loops = loops->value_or(1);
  const double each = std::max(node.loops, 1.0);
  if (*plan_rows) node.est_rows = std::min(**plan_rows, kMaxEstimate) * each;
  if (*plan_rows && **plan_rows > kMaxEstimate) node.est_clamped = true;
  if (*actual_rows && node.loops > 0) node.actual_rows = **actual_rows * node.loops;
  node.parallel = parallel || f.boolean("Parallel Aware");
  // Under a Gather each process reports its average: the time is wall-clock already.
  node.inclusive_ms = total_time->value_or(0) * (node.parallel ? 1.0 : node.loops);
  node.table = f.string("Relation Name");
  const std::string alias = f.string("Alias");
  if (!alias.empty() && alias != node.table && !node.table.empty()) node.table += " " + alias;
  node.cte_name = f.string("CTE Name");
  node.subplan_name = f.string("Subplan Name");
  node.relationship = f.string("Parent Relationship");
  node.join_type = f.string("Join Type");
  node.filter = f.string("Filter");
  if (const std::string index = f.string("Index Cond"); !index.empty())
    node.filter = node.filter.empty() ? index : index + " AND " + node.filter;
  for (const char* key : {"Hash Cond", "Merge Cond", "Join Filter"}) {
    if (node.join_condition.empty()) node.join_condition = f.string(key);
  }
  double removed = 0;
  bool any_removed = false;
  for (const char* key :
       {"Rows Removed by Filter", "Rows Removed by Join Filter", "Rows Removed by Index Recheck"}) {
    Result<std::optional<double>> value = f.number(key);
    if (!value) return value.error();
    if (*value) {
      removed += **value;
      any_removed = true;
    }
  }
  if (any_removed) node.rows_removed = removed * each;
  node.sort_method = f.string("Sort Method");
  node.sort_spilled =
      f.string("Sort Space Type") == "Disk" || node.sort_method.find("external") != std::string::npos;
  for (auto [key, slot] :
       {std::pair{"Hash Batches", &node.hash_batches}, std::pair{"Workers Launched", &node.workers},
        std::pair{"Shared Hit Blocks", &node.shared_hit_blocks},
        std::pair{"Shared Read Blocks", &node.shared_read_blocks}}) {
    Result<std::optional<double>> value = f.number(key);
    if (!value) return value.error();
    *slot = *value;
  }
  if (!node.workers) {
    Result<std::optional<double>> planned = f.number("Workers Planned");
    if (!planned) return planned.error();
    node.workers = *planned;
  }
  Result<std::optional<double>> temp_read = f.number("Temp Read Blocks");
  Result<std::optional<double>> temp_written = f.number("Temp Written Blocks");
  if (!temp_read) return temp_read.error();
  if (!temp_written) return temp_written.error();
  if (*temp_read || *temp_written) node.temp_blocks = temp_read->value_or(0) + temp_written->value_or(0);

  const bool gathers = node.op == "Gather" || node.op == "Gather Merge";
  tree.nodes.push_back(node);
  auto plans = json.find("Plans");
  if (plans == json.end()) return node.id;
  if (!plans->is_array()) return core::invalid_argument("expected an array of plans", pointer + "/Plans");
  for (std::size_t i = 0; i < plans->size(); ++i) {
    Result<int> child = read_pg_node((*plans)[i], pointer + "/Plans/" + std::to_string(i), node.id,
                                     node.parallel || gathers, depth + 1, tree);
    if (!child) return child.error();
    tree.nodes[static_cast<std::size_t>(node.id)].children.push_back(*child);
  }
  return node.id;
}

// ---- DuckDB -----------------------------------------------------------------------------------

std::string duckdb_operator(const Json& json) {
  for (const char* key : {"operator_type", "operator_name", "name"}) {
    auto it = json.find(key);
    if (it != json.end() && it->is_string() && !trimmed(it->get<std::string>()).empty())
      return trimmed(it->get<std::string>());
  }
  return {};
}

bool is_wrapper(const std::string& op) {
  return op == "EXPLAIN_ANALYZE" || op == "RESULT_COLLECTOR" || op == "EXPLAIN";
}

std::optional<double> parse_estimate(const std::string& text, bool& clamped) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(value) || value < 0) return std::nullopt;
  if (value > kMaxEstimate) {
    clamped = true;
    return kMaxEstimate;
  }
  return value;
}

Result<int> read_duckdb_node(const Json& json, const std::string& pointer, int parent, int depth,
                             PlanTree& tree);

Result<void> read_duckdb_children(const Json& json, const std::string& pointer, int parent, int depth,
                                  PlanTree& tree) {
  auto children = json.find("children");
  if (children == json.end()) return core::ok();
  if (!children->is_array()) return core::invalid_argument("expected an array", pointer + "/children");
  for (std::size_t i = 0; i < children->size(); ++i) {
    const std::string child_pointer = pointer + "/children/" + std::to_string(i);
    const Json& child = (*children)[i];
    if (!child.is_object()) return core::invalid_argument("expected an operator object", child_pointer);
    if (is_wrapper(duckdb_operator(child))) {
      if (depth > kMaxDepth)
        return core::invalid_argument("plan nested deeper than 500 levels", child_pointer);
      if (Result<void> inner = read_duckdb_children(child, child_pointer, parent, depth + 1, tree); !inner)
        return inner;
      continue;
    }
    Result<int> id = read_duckdb_node(child, child_pointer, parent, depth + 1, tree);
    if (!id) return id.error();
    if (parent >= 0) tree.nodes[static_cast<std::size_t>(parent)].children.push_back(*id);
  }
  return core::ok();
}

Result<int> read_duckdb_node(const Json& json, const std::string& pointer, int parent, int depth,
                             PlanTree& tree) {
  if (depth > kMaxDepth) return core::invalid_argument("plan nested deeper than 500 levels", pointer);
  const Fields f(json, pointer);
  PlanNode node;
  node.id = static_cast<int>(tree.nodes.size());
  node.parent = parent;
  node.op = duckdb_operator(json);
  if (node.op.empty()) return core::invalid_argument("operator without \"operator_type\"", pointer);
  Result<std::optional<double>> cardinality = f.number("operator_cardinality");
  if (!cardinality) return cardinality.error();
  if (!*cardinality) {
    cardinality = f.number("cardinality");
    if (!cardinality) return cardinality.error();
  }
  Result<std::optional<double>> timing = f.number("operator_timing");
  if (!timing) return timing.error();
  if (!*timing) {
    timing = f.number("timing");
    if (!timing) return timing.error();
  }
  Result<std::optional<double>> scanned = f.number("operator_rows_scanned");
  if (!scanned) return scanned.error();
  node.actual_rows = *cardinality;
  node.exclusive_ms = timing->value_or(0) * 1000.0;
  auto extra = json.find("extra_info");
  if (extra != json.end() && extra->is_object()) {
    const Fields info(*extra, pointer + "/extra_info");
    node.est_rows = parse_estimate(info.string("Estimated Cardinality"), node.est_clamped);
    node.table = info.string("Table");
    node.filter = info.string("Filters");
    node.join_type = info.string("Join Type");
    node.join_condition = info.string("Conditions");
    node.cte_name = info.string("CTE Name");
  } else if (extra != json.end() && !extra->is_string() && !extra->is_null()) {
    return core::invalid_argument("expected an object", pointer + "/extra_info");
  }
  if (*scanned && node.actual_rows && !node.filter.empty() && **scanned >= *node.actual_rows)
    node.rows_removed = **scanned - *node.actual_rows;
  tree.nodes.push_back(node);
  if (Result<void> children = read_duckdb_children(json, pointer, node.id, depth, tree); !children)
    return children.error();
  return node.id;
}

}  // namespace

Result<PlanTree> read_postgres_plan(const Json& plan) {
  const Json* top = &plan;
  std::string pointer;
  if (plan.is_array()) {
    if (plan.size() != 1) return core::invalid_argument("expected one plan in the array", "/");
    top = &plan[0];
    pointer = "/0";
  }
  if (!top->is_object() || !top->contains("Plan"))
    return core::invalid_argument("no \"Plan\" object: not PostgreSQL EXPLAIN (FORMAT JSON) output",
                                  pointer + "/");
  PlanTree tree;
  tree.engine = Engine::kPostgres;
  Result<int> root = read_pg_node(top->at("Plan"), pointer + "/Plan", -1, false, 0, tree);
  if (!root) return root.error();
  fill_exclusive(tree);
  const Fields f(*top, pointer);
  Result<std::optional<double>> execution = f.number("Execution Time");
  if (!execution) return execution.error();
  tree.total_ms = execution->value_or(tree.root().inclusive_ms);
  return tree;
}

Result<PlanTree> read_duckdb_plan(const Json& plan) {
  if (!plan.is_object() || !plan.contains("children"))
    return core::invalid_argument("no \"children\": not a DuckDB JSON profile", "/");
  PlanTree tree;
  tree.engine = Engine::kDuckDb;
  const std::string op = duckdb_operator(plan);
  if (!op.empty() && !is_wrapper(op)) {
    Result<int> root = read_duckdb_node(plan, "", -1, 0, tree);
    if (!root) return root.error();
  } else {
    // The query's own node: a QUERY root when it has several operators below it.
    PlanTree below;
    below.engine = Engine::kDuckDb;
    if (Result<void> read = read_duckdb_children(plan, "", -1, 0, below); !read) return read.error();
    if (below.empty()) return core::invalid_argument("the profile has no operators", "/children");
    std::vector<int> roots;
    for (const PlanNode& node : below.nodes)
      if (node.parent < 0) roots.push_back(node.id);
    if (roots.size() == 1) {
      tree = std::move(below);
    } else {
      PlanNode query;
      query.op = "QUERY";
      tree.nodes.push_back(query);
      for (PlanNode node : below.nodes) {
        node.id += 1;
        node.parent = node.parent < 0 ? 0 : node.parent + 1;
        for (int& child : node.children) child += 1;
        if (node.parent == 0) tree.nodes[0].children.push_back(node.id);
        tree.nodes.push_back(std::move(node));
      }
    }
  }
  fill_inclusive(tree);
  const Fields f(plan, "");
  Result<std::optional<double>> latency = f.number("latency");
  if (!latency) return latency.error();
  tree.total_ms = (*latency && **latency > 0) ? **latency * 1000.0 : tree.root().inclusive_ms;
  return tree;
}

Result<PlanTree> read_plan(const Json& plan) {
  const bool postgres =
      (plan.is_array() && !plan.empty() && plan[0].is_object() && plan[0].contains("Plan")) ||
      (plan.is_object() && plan.contains("Plan"));
  if (postgres) return read_postgres_plan(plan);
  if (plan.is_object() && plan.contains("children")) return read_duckdb_plan(plan);
  return core::invalid_argument(
      "not a plan: expected PostgreSQL EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output ([{\"Plan\": ...}]) "
      "or a DuckDB JSON profile ({\"children\": [...]})",
      "/");
}

Result<PlanTree> read_plan_text(std::string_view text, std::string_view where) {
  Json json;
  try {
    json = Json::parse(text);
  } catch (const Json::parse_error& e) {
    const TextPosition at = position_of(text, e.byte == 0 ? 0 : e.byte - 1);  // the byte at fault
    return core::invalid_argument(
        "malformed JSON plan: " + std::string(e.what()),
        std::string(where) + ":" + std::to_string(at.line) + ":" + std::to_string(at.column));
  }
  Result<PlanTree> tree = read_plan(json);
  if (!tree) {
    core::Error error = tree.error();
    error.where = std::string(where) + (error.where.empty() ? "" : " at " + error.where);
    return error;
  }
  return tree;
}

}  // namespace planfirst::sqlopt
