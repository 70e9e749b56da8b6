#include "pipelines/sqlopt/logic_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "core/ascii_case.hpp"
#include "pipelines/sqlopt/sql_statement.hpp"
#include "pipelines/sqlopt/sql_text.hpp"

namespace planfirst::sqlopt {
namespace {

using core::Json;

const std::set<std::string>& aggregate_names() {
  static const std::set<std::string> names = {"avg",
                                              "sum",
                                              "count",
                                              "min",
                                              "max",
                                              "stddev",
                                              "stddev_samp",
                                              "stddev_pop",
                                              "variance",
                                              "var_samp",
                                              "var_pop",
                                              "bool_and",
                                              "bool_or",
                                              "every",
                                              "string_agg",
                                              "array_agg",
                                              "median",
                                              "mode",
                                              "any_value",
                                              "first",
                                              "last",
                                              "percentile_cont",
                                              "percentile_disc",
                                              "corr",
                                              "covar_pop",
                                              "covar_samp",
                                              "list",
                                              "arg_max",
                                              "arg_min"};
  return names;
}

std::string sval(const Json& node) {
  if (node.is_object() && node.contains("String")) return node["String"].value("sval", "");
  return {};
}

// The smallest "location" inside an expression (its first byte in the SQL text).
constexpr int kMaxDepth = 400;

std::size_t first_location(const Json& node, int depth = 0) {
  std::size_t best = std::string::npos;
  if (depth > kMaxDepth) return best;
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (key == "location" && value.is_number_integer() && value.get<long long>() >= 0)
        best = std::min(best, static_cast<std::size_t>(value.get<long long>()));
      else if (value.is_structured())
        best = std::min(best, first_location(value, depth + 1));
    }
  } else if (node.is_array()) {
    for (const Json& item : node) best = std::min(best, first_location(item, depth + 1));
  }
  return best;
}

class Builder {
 public:
  explicit Builder(LogicTree& tree) : tree_(tree) {}

  void select(const Json& stmt, LogicNode node, std::vector<std::set<std::string>> scopes) {
    const std::size_t index = tree_.nodes.size();
    tree_.nodes.push_back(std::move(node));
    fill(stmt, index, scopes);
  }

 private:
  LogicNode& at(std::size_t index) { return tree_.nodes[index]; }

  std::size_t first_paren_span(std::size_t from, std::size_t& end) const {
    const std::size_t open = tree_.sql.find('(', from);
    if (open == std::string::npos) {
      end = 0;
      return 0;
    }
    end = matching_paren(tree_.sql, open);
    if (end == std::string::npos) end = tree_.sql.size();
    return open;
  }

  void fill(const Json& stmt, std::size_t index, std::vector<std::set<std::string>> scopes) {
    if (!stmt.is_object() || depth_ > kMaxDepth) return;
    ++depth_;
    const std::string op = stmt.value("op", "SETOP_NONE");
    if (stmt.contains("withClause")) ctes(stmt["withClause"], index, scopes);
    if (op != "SETOP_NONE") {
      std::string name = op == "SETOP_UNION" ? "UNION" : op == "SETOP_INTERSECT" ? "INTERSECT" : "EXCEPT";
      if (stmt.value("all", false)) name += " ALL";
      at(index).set_operation = name;
      at(index).has_order_by = stmt.contains("sortClause");
      at(index).has_limit = stmt.contains("limitCount");
      for (const char* side : {"larg", "rarg"}) {
        if (!stmt.contains(side)) continue;
        LogicNode branch;
        branch.id = "branch:" + std::to_string(++branches_);
        branch.kind = "branch";
        branch.parent = at(index).id;
        select(stmt[side], std::move(branch), scopes);
      }
      --depth_;
      return;
    }
    std::set<std::string> own;
    if (stmt.contains("fromClause")) {
      for (const Json& item : stmt["fromClause"]) from_item(item, index, scopes, own);
    }
    scopes.push_back(own);
    at(index).aliases.assign(own.begin(), own.end());
    at(index).has_where = stmt.contains("whereClause");
    at(index).has_group_by = stmt.contains("groupClause");
    at(index).has_having = stmt.contains("havingClause");
    at(index).has_order_by = stmt.contains("sortClause");
    at(index).has_limit = stmt.contains("limitCount");
    at(index).has_distinct = stmt.contains("distinctClause");
    if (stmt.contains("targetList")) expr(stmt["targetList"], index, scopes, "select", false, true);
    if (stmt.contains("whereClause"))
      expr(stmt["whereClause"], index, scopes, "where", true, false, false, true);
    if (stmt.contains("havingClause")) expr(stmt["havingClause"], index, scopes, "having", false, false);
    if (stmt.contains("groupClause")) expr(stmt["groupClause"], index, scopes, "other", false, false);
    if (stmt.contains("sortClause")) expr(stmt["sortClause"], index, scopes, "other", false, false);
    --depth_;
  }

  void ctes(const Json& with, std::size_t index, const std::vector<std::set<std::string>>& scopes) {
    if (!with.contains("ctes")) return;
    for (const Json& item : with["ctes"]) {
      if (!item.contains("CommonTableExpr")) continue;
      const Json& cte = item["CommonTableExpr"];
      LogicNode node;
      node.kind = "cte";
      node.id = "cte:" + cte.value("ctename", std::string("?"));
      node.parent = at(index).id;
      const int location = cte.value("location", 0);
      std::size_t end = 0;
      node.span_begin = first_paren_span(static_cast<std::size_t>(std::max(location, 0)), end);
      node.span_end = end;
      if (cte.contains("ctequery") && cte["ctequery"].contains("SelectStmt"))
        select(cte["ctequery"]["SelectStmt"], std::move(node), scopes);
      else
        tree_.nodes.push_back(std::move(node));
    }
  }

  void from_item(const Json& item, std::size_t index, const std::vector<std::set<std::string>>& scopes,
                 std::set<std::string>& own) {
    if (!item.is_object()) return;
    if (item.contains("RangeVar")) {
      const Json& range = item["RangeVar"];
      const std::string name = range.value("relname", "");
      const std::string alias = range.contains("alias") ? range["alias"].value("aliasname", "") : "";
      at(index).tables.push_back(alias.empty() ? name : name + " " + alias);
      own.insert(alias.empty() ? name : alias);
      references_.push_back(name);
    } else if (item.contains("JoinExpr")) {
      const Json& join = item["JoinExpr"];
      at(index).joins.push_back(join.value("jointype", "JOIN_INNER"));
      if (join.contains("larg")) from_item(join["larg"], index, scopes, own);
      if (join.contains("rarg")) from_item(join["rarg"], index, scopes, own);
      if (join.contains("quals")) {
        std::vector<std::set<std::string>> inner = scopes;
        inner.push_back(own);
        expr(join["quals"], index, inner, "other", false, false);
      }
    } else if (item.contains("RangeSubselect")) {
      const Json& sub = item["RangeSubselect"];
      const std::string alias = sub.contains("alias") ? sub["alias"].value("aliasname", "") : "";
      if (!alias.empty()) own.insert(alias);
      LogicNode node;
      node.kind = "subquery";
      node.id = "subquery:" + std::to_string(++subqueries_);
      node.parent = at(index).id;
      node.sublink = "FROM";
      node.placement = "from";
      if (sub.contains("subquery") && sub["subquery"].contains("SelectStmt"))
        select(sub["subquery"]["SelectStmt"], std::move(node),
               sub.value("lateral", false) ? with(scopes, own) : scopes);
    }
  }

  static std::vector<std::set<std::string>> with(std::vector<std::set<std::string>> scopes,
                                                 const std::set<std::string>& own) {
    scopes.push_back(own);
    return scopes;
  }

  // Walks an expression; `conjunct` is true while only AND (and NOT) lies between it and the WHERE.
  void expr(const Json& node, std::size_t index, const std::vector<std::set<std::string>>& scopes,
            const std::string& placement, bool conjunct, bool target, bool negated = false,
            bool positive = false) {
    struct Depth {  // deeply nested expressions are not walked past kMaxDepth
      int& value;
      explicit Depth(int& v) : value(++v) {}
      ~Depth() { --value; }
    } guard(depth_);
    if (depth_ > kMaxDepth) return;
    if (node.is_array()) {
      for (const Json& item : node) expr(item, index, scopes, placement, conjunct, target);
      return;
    }
    if (!node.is_object()) return;
    for (const auto& [key, value] : node.items()) {
      if (key == "SubLink") {
        sublink(value, index, scopes, placement, conjunct, negated, positive);
      } else if (key == "BoolExpr") {
        const std::string boolop = value.value("boolop", "");
        const bool keeps = conjunct && (boolop == "AND_EXPR" || boolop == "NOT_EXPR");
        const bool stays_positive = positive && (boolop == "AND_EXPR" || boolop == "OR_EXPR");
        if (value.contains("args"))
          for (const Json& arg : value["args"])
            expr(arg, index, scopes, placement, keeps, false, boolop == "NOT_EXPR", stays_positive);
      } else if (key == "A_Expr") {
        for (const char* side : {"lexpr", "rexpr"})
          if (value.contains(side)) expr(value[side], index, scopes, placement, conjunct, false);
      } else if (key == "FuncCall") {
        std::string name;
        if (value.contains("funcname") && !value["funcname"].empty())
          name = core::ascii_lower(sval(value["funcname"].back()));
        if (value.contains("over")) {
          at(index).has_window = true;
        } else if (aggregate_names().contains(name) || value.value("agg_star", false)) {
          at(index).aggregates.push_back(name);
          if (value.contains("agg_filter")) at(index).aggregate_filter = true;
        }
        for (const auto& [k, v] : value.items())
          if (k != "funcname") expr(v, index, scopes, placement, false, false);
      } else if (key == "ColumnRef") {
        column(value, index, scopes, target);
      } else if (key == "SelectStmt") {
        continue;  // reached only through a SubLink or a FROM item
      } else if (value.is_object() || value.is_array()) {
        expr(value, index, scopes, placement, false,
             target && key == "ResTarget" ? true : target && key == "val");
      }
    }
  }

  void column(const Json& ref, std::size_t index, const std::vector<std::set<std::string>>& scopes,
              bool target) {
    if (!ref.contains("fields")) return;
    const Json& fields = ref["fields"];
    if (!fields.empty() && fields.back().contains("A_Star") && target) at(index).selects_star = true;
    if (fields.size() < 2) return;
    const std::string qualifier = sval(fields[fields.size() - 2]);
    if (qualifier.empty() || scopes.empty() || scopes.back().contains(qualifier)) return;
    for (std::size_t s = 0; s + 1 < scopes.size(); ++s) {
      if (scopes[s].contains(qualifier)) {
        at(index).correlated = true;
        const std::string name = qualifier + "." + sval(fields.back());
        auto& refs = at(index).outer_references;
        if (std::find(refs.begin(), refs.end(), name) == refs.end()) refs.push_back(name);
        return;
      }
    }
  }

  void sublink(const Json& link, std::size_t index, const std::vector<std::set<std::string>>& scopes,
               const std::string& placement, bool conjunct, bool negated, bool positive) {
    const std::string type = link.value("subLinkType", "");
    LogicNode node;
    node.kind = "subquery";
    node.id = "subquery:" + std::to_string(++subqueries_);
    node.parent = at(index).id;
    node.placement = placement;
    node.top_level_conjunct = conjunct;
    node.positive_context = positive && !negated;
    if (type == "EXISTS_SUBLINK")
      node.sublink = negated ? "NOT EXISTS" : "EXISTS";
    else if (type == "ANY_SUBLINK")
      node.sublink = negated ? "NOT IN" : "IN";
    else if (type == "ALL_SUBLINK")
      node.sublink = "ALL";
    else if (type == "EXPR_SUBLINK")
      node.sublink = "SCALAR";
    else
      node.sublink = type;
    const int location = link.value("location", 0);
    std::size_t end = 0;
    node.expression_begin = static_cast<std::size_t>(std::max(location, 0));
    if (link.contains("testexpr"))
      node.expression_begin = std::min(node.expression_begin, first_location(link["testexpr"]));
    node.span_begin = first_paren_span(static_cast<std::size_t>(std::max(location, 0)), end);
    node.span_end = end;
    if (link.contains("testexpr")) expr(link["testexpr"], index, scopes, placement, false, false);
    if (link.contains("subselect") && link["subselect"].contains("SelectStmt"))
      select(link["subselect"]["SelectStmt"], std::move(node), scopes);
  }

 public:
  void count_references() {
    for (LogicNode& node : tree_.nodes) {
      if (node.kind != "cte") continue;
      const std::string name = node.id.substr(4);
      node.references = static_cast<int>(std::count(references_.begin(), references_.end(), name));
    }
  }

 private:
  LogicTree& tree_;
  int subqueries_ = 0;
  int branches_ = 0;
  int depth_ = 0;
  std::vector<std::string> references_;
};

}  // namespace

core::Json LogicNode::to_json() const {
  Json out = {{"id", id},
              {"kind", kind},
              {"tables", tables},
              {"joins", joins},
              {"aggregates", aggregates},
              {"correlated", correlated},
              {"span", {span_begin, span_end}}};
  if (!parent.empty()) out["parent"] = parent;
  if (!sublink.empty()) out["sublink"] = sublink;
  if (!placement.empty()) out["placement"] = placement;
  if (!outer_references.empty()) out["outer_references"] = outer_references;
  if (!set_operation.empty()) out["set_operation"] = set_operation;
  if (kind == "cte") out["references"] = references;
  std::vector<std::string> clauses;
  for (auto [flag, name] :
       {std::pair{has_where, "where"}, std::pair{has_group_by, "group_by"}, std::pair{has_having, "having"},
        std::pair{has_order_by, "order_by"}, std::pair{has_limit, "limit"},
        std::pair{has_distinct, "distinct"}, std::pair{has_window, "window"},
        std::pair{aggregate_filter, "aggregate_filter"}, std::pair{selects_star, "select_star"}})
    if (flag) clauses.push_back(name);
  out["clauses"] = clauses;
  return out;
}

const LogicNode* LogicTree::find(std::string_view id) const {
  for (const LogicNode& node : nodes)
    if (node.id == id) return &node;
  return nullptr;
}

std::string LogicTree::span_text(const LogicNode& node) const {
  if (node.span_end <= node.span_begin || node.span_end > sql.size()) return {};
  return sql.substr(node.span_begin, node.span_end - node.span_begin);
}

core::Json LogicTree::to_json() const {
  Json out = Json::array();
  for (const LogicNode& node : nodes) out.push_back(node.to_json());
  return out;
}

std::string LogicTree::to_text() const {
  std::string out;
  for (const LogicNode& node : nodes) {
    int depth = 0;
    for (const LogicNode* up = &node; !up->parent.empty(); up = find(up->parent)) {
      ++depth;
      if (find(up->parent) == nullptr || depth > 50) break;
    }
    std::string line = std::string(static_cast<std::size_t>(depth) * 2, ' ') + node.id;
    if (!node.sublink.empty()) line += " " + node.sublink + " in " + node.placement;
    if (!node.set_operation.empty()) line += " " + node.set_operation;
    if (!node.tables.empty()) line += fmt::format(" tables [{}]", fmt::join(node.tables, ", "));
    if (!node.joins.empty()) line += fmt::format(" joins {}", node.joins.size());
    if (!node.aggregates.empty()) line += fmt::format(" aggregates [{}]", fmt::join(node.aggregates, ", "));
    if (node.correlated) line += fmt::format(" correlated on [{}]", fmt::join(node.outer_references, ", "));
    if (node.kind == "cte") line += fmt::format(" referenced {}x", node.references);
    for (auto [flag, name] : {std::pair{node.has_where, "WHERE"}, std::pair{node.has_group_by, "GROUP BY"},
                              std::pair{node.has_order_by, "ORDER BY"}, std::pair{node.has_limit, "LIMIT"},
                              std::pair{node.has_distinct, "DISTINCT"}, std::pair{node.has_window, "WINDOW"}})
      if (flag) line += std::string(" ") + name;
    out += line + "\n";
  }
  return out;
}

core::Result<LogicTree> build_logic_tree(std::string_view sql) {
  core::Result<Json> parsed = parse_postgres_sql(sql);
  if (!parsed) return parsed.error();
  if (core::Result<void> single = require_single_select(*parsed); !single) return single.error();
  LogicTree tree;
  tree.sql = std::string(sql);
  tree.parse_tree = std::move(*parsed);
  const Json& stmt = tree.parse_tree["stmts"][0]["stmt"]["SelectStmt"];
  LogicNode main;
  main.id = "main";
  main.kind = "query";
  main.span_end = tree.sql.size();
  Builder builder(tree);
  builder.select(stmt, std::move(main), {});
  builder.count_references();
  return tree;
}

}  // namespace planfirst::sqlopt
