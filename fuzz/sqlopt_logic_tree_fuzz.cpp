// Fuzzes the logic tree of SQL text (the PostgreSQL parser, the cards, the spans) and the rule
// rewrites over it: never a crash or a throw, the same answer twice, spans inside the text.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "pipelines/sqlopt/findings.hpp"
#include "pipelines/sqlopt/logic_tree.hpp"
#include "pipelines/sqlopt/rewrites.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace planfirst::sqlopt;
  const std::string sql(reinterpret_cast<const char*>(data), size);
  const auto first = build_logic_tree(sql);
  const auto second = build_logic_tree(sql);
  if (first.has_value() != second.has_value()) __builtin_trap();
  if (!first) {
    if (first.error().message.empty() || first.error().describe() != second.error().describe())
      __builtin_trap();
    return 0;
  }
  if (first->to_json() != second->to_json()) __builtin_trap();
  for (const LogicNode& node : first->nodes)
    if (node.span_end > sql.size() || (node.span_end != 0 && node.span_begin > node.span_end))
      __builtin_trap();
  std::vector<Finding> findings;
  for (const std::string& id : transform_ids()) findings.push_back({id, {}, "", ""});
  SchemaFacts facts;
  const auto a = propose_rewrites(*first, findings, facts);
  const auto b = propose_rewrites(*second, findings, facts);
  if (a.size() != b.size()) __builtin_trap();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].sql != b[i].sql) __builtin_trap();
  return 0;
}
