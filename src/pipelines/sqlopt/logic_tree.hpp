// LogicTree is the structure of a SELECT statement (seed §2c): the main query, its CTEs, its
// subqueries and set-operation branches, one card each (tables, joins, predicates, aggregates,
// correlation, grouping, ordering), built from the PostgreSQL parser's JSON parse tree. Spans are
// byte ranges of the SQL text. A value type; deterministic.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::sqlopt {

struct LogicNode {
  std::string id;                       // "main", "cte:totals", "subquery:1", "branch:2"
  std::string kind;                     // "query", "cte", "subquery", "branch"
  std::string parent;                   // id of the enclosing node; "" for main
  std::string sublink;                  // for a subquery: "EXISTS", "NOT EXISTS", "IN", "SCALAR", "FROM"
  std::string placement;                // for a subquery: "where", "select", "from", "having", "other"
  bool top_level_conjunct = false;      // a WHERE subquery that is (part of) a top-level AND operand
  bool positive_context = false;        // only AND/OR lie between it and the WHERE (NULL acts as false)
  std::size_t expression_begin = 0;     // where the subquery expression starts ("EXISTS (", "x IN (")
  std::vector<std::string> tables;      // "orders o" (name and alias)
  std::vector<std::string> aliases;     // the names columns use for them (alias, else table name)
  std::vector<std::string> joins;       // "JOIN_INNER", "JOIN_LEFT", ...
  std::vector<std::string> aggregates;  // "avg", "sum", "count", "stddev_samp" (lower case)
  bool aggregate_filter = false;        // an aggregate with FILTER (WHERE ...)
  bool has_where = false, has_group_by = false, has_having = false, has_order_by = false;
  bool has_limit = false, has_distinct = false, has_window = false, selects_star = false;
  std::string set_operation;                  // "UNION", "UNION ALL", "INTERSECT", "EXCEPT" or ""
  bool correlated = false;                    // refers to an alias of an enclosing query
  std::vector<std::string> outer_references;  // "o.customer_id" columns of enclosing queries
  int references = 0;                         // for a CTE: how often the rest of the statement names it
  std::size_t span_begin = 0, span_end = 0;   // byte range in the SQL, end exclusive

  core::Json to_json() const;  // the card
};

struct LogicTree {
  std::string sql;               // the text the spans point into
  core::Json parse_tree;         // libpg_query's JSON
  std::vector<LogicNode> nodes;  // main first, then in order of appearance

  bool empty() const { return nodes.empty(); }
  const LogicNode* find(std::string_view id) const;
  std::string span_text(const LogicNode& node) const;
  core::Json to_json() const;
  std::string to_text() const;  // one card per line, indented by nesting
};

// Parses `sql` (one SELECT) into its logic tree; errors as parse_postgres_sql.
core::Result<LogicTree> build_logic_tree(std::string_view sql);

}  // namespace planfirst::sqlopt
