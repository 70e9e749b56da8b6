#include "pipelines/sqlopt/plan_tree.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {
namespace {

void put(core::Json& object, const char* key, const std::optional<double>& value) {
  if (value) object[key] = *value;
}

void put(core::Json& object, const char* key, const std::string& value) {
  if (!value.empty()) object[key] = value;
}

}  // namespace

std::string to_string(Engine engine) {
  return engine == Engine::kDuckDb ? "duckdb" : "postgresql";
}

core::Json PlanTree::to_json() const {
  core::Json list = core::Json::array();
  for (const PlanNode& node : nodes) {
    core::Json item = {{"id", node.id},
                       {"operator", node.op},
                       {"loops", node.loops},
                       {"inclusive_ms", node.inclusive_ms},
                       {"exclusive_ms", node.exclusive_ms},
                       {"children", node.children}};
    put(item, "est_rows", node.est_rows);
    put(item, "actual_rows", node.actual_rows);
    if (node.est_clamped) item["est_clamped"] = true;
    put(item, "table", node.table);
    put(item, "filter", node.filter);
    put(item, "join_type", node.join_type);
    put(item, "join_condition", node.join_condition);
    put(item, "rows_removed_by_filter", node.rows_removed);
    put(item, "sort_method", node.sort_method);
    if (node.sort_spilled) item["sort_spilled"] = true;
    put(item, "hash_batches", node.hash_batches);
    put(item, "workers", node.workers);
    put(item, "shared_hit_blocks", node.shared_hit_blocks);
    put(item, "shared_read_blocks", node.shared_read_blocks);
    put(item, "temp_blocks", node.temp_blocks);
    put(item, "relationship", node.relationship);
    put(item, "subplan_name", node.subplan_name);
    put(item, "cte_name", node.cte_name);
    if (node.parallel) item["parallel"] = true;
    list.push_back(std::move(item));
  }
  return {{"engine", to_string(engine)}, {"total_ms", total_ms}, {"nodes", std::move(list)}};
}

}  // namespace planfirst::sqlopt
