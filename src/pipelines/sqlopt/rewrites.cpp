#include "pipelines/sqlopt/rewrites.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "pipelines/sqlopt/sql_text.hpp"

namespace planfirst::sqlopt {
namespace {

using core::Json;

bool found(const std::vector<Finding>& findings, std::string_view transform) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return f.transform == transform; });
}

// The text inside a "( ... )" span.
std::string inner_text(const LogicTree& logic, const LogicNode& node) {
  const std::string span = logic.span_text(node);
  if (span.size() < 2 || span.front() != '(' || span.back() != ')') return {};
  return span.substr(1, span.size() - 2);
}

bool mentions(std::string_view text, const std::vector<std::string>& refs) {
  const std::string lower = normalized(text);
  for (const std::string& ref : refs) {
    const std::string r = normalized(ref);
    for (std::size_t at = lower.find(r); at != std::string::npos; at = lower.find(r, at + 1)) {
      const bool left = at == 0 || !(std::isalnum(static_cast<unsigned char>(lower[at - 1])) ||
                                     lower[at - 1] == '_' || lower[at - 1] == '.');
      const std::size_t after = at + r.size();
      const bool right = after >= lower.size() ||
                         !(std::isalnum(static_cast<unsigned char>(lower[after])) || lower[after] == '_');
      if (left && right) return true;
    }
  }
  return false;
}

// "name(...)" with nothing around it; returns the lower-case name or "".
std::string single_call(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  if (i == 0) return {};
  std::size_t open = i;
  while (open < text.size() && std::isspace(static_cast<unsigned char>(text[open]))) ++open;
  if (open >= text.size() || text[open] != '(') return {};
  if (matching_paren(text, open) != text.size()) return {};
  return normalized(text.substr(0, i));
}

// A correlated subquery body split into its aggregate, FROM, correlation keys and local predicates.
struct Correlated {
  std::string select_list;
  std::string from;
  std::vector<std::pair<std::string, std::string>> keys;  // inner expression, outer reference
  std::vector<std::string> locals;
};

std::optional<Correlated> split_correlated(const std::string& body, const LogicNode& node) {
  core::Result<SelectClauses> clauses = split_select(body);
  if (!clauses || clauses->set_operation || !clauses->from || !clauses->where || clauses->group_by ||
      clauses->having || clauses->order_by || clauses->limit)
    return std::nullopt;
  Correlated out;
  out.select_list = std::string(clauses->select.of(body));
  out.from = std::string(clauses->from->of(body));
  if (mentions(out.select_list, node.outer_references) || mentions(out.from, node.outer_references))
    return std::nullopt;
  for (const Span& conjunct : split_conjuncts(body, *clauses->where)) {
    const std::string text(conjunct.of(body));
    if (!mentions(text, node.outer_references)) {
      out.locals.push_back(text);
      continue;
    }
    // inner = outer, exactly one '=' that is no part of <=, >=, <>, !=.
    std::size_t eq = std::string::npos;
    int count = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const bool comparison = i > 0 && (text[i - 1] == '<' || text[i - 1] == '>' || text[i - 1] == '!');
      if (text[i] == '=' && !comparison) {
        eq = i;
        ++count;
      }
    }
    if (count != 1) return std::nullopt;
    const std::string left = std::string(trimmed(text, {0, eq}).of(text));
    const std::string right = std::string(trimmed(text, {eq + 1, text.size()}).of(text));
    auto is_outer = [&](const std::string& side) {
      return std::any_of(node.outer_references.begin(), node.outer_references.end(),
                         [&](const std::string& ref) { return normalized(ref) == normalized(side); });
    };
    if (is_outer(left) && !mentions(right, node.outer_references)) {
      out.keys.emplace_back(right, left);
    } else if (is_outer(right) && !mentions(left, node.outer_references)) {
      out.keys.emplace_back(left, right);
    } else {
      return std::nullopt;
    }
  }
  if (out.keys.empty()) return std::nullopt;
  return out;
}

std::string joined_locals(const std::vector<std::string>& locals) {
  if (locals.empty()) return {};
  std::string out = " WHERE ";
  for (std::size_t i = 0; i < locals.size(); ++i)
    out += (i ? " AND " : "") + std::string("(") + locals[i] + ")";
  return out;
}

// ---- decorrelation: a correlated scalar SUM/AVG/MIN/MAX in a top-level WHERE conjunct -----------

void decorrelate_scalar(const LogicTree& logic, std::vector<Rewrite>& out) {
  const LogicNode* main = logic.find("main");
  if (main == nullptr || !main->set_operation.empty() || main->selects_star || main->tables.empty()) return;
  const std::string& sql = logic.sql;
  core::Result<SelectClauses> outer = split_select(sql);
  if (!outer || outer->set_operation || !outer->from || !outer->where) return;
  std::vector<Edit> edits;
  std::vector<std::string> join_predicates;
  std::string derived;
  int n = 0;
  for (const LogicNode& node : logic.nodes) {
    if (node.parent != "main" || node.sublink != "SCALAR" || node.placement != "where" || !node.correlated ||
        !node.top_level_conjunct || node.tables.size() != 1 || !node.joins.empty() || node.has_window ||
        node.has_distinct || node.aggregates.size() != 1 || node.aggregate_filter)
      continue;
    // COUNT over no rows is 0, not NULL: an inner join would drop the rows it keeps (seed §3b).
    static const std::set<std::string> kSafe = {"sum", "avg", "min", "max"};
    const std::optional<Correlated> parts = split_correlated(inner_text(logic, node), node);
    if (!parts || !kSafe.contains(single_call(
                      trimmed(parts->select_list, {0, parts->select_list.size()}).of(parts->select_list))))
      continue;
    ++n;
    const std::string alias = fmt::format("pf_d{}", n);
    std::string select, group;
    for (std::size_t k = 0; k < parts->keys.size(); ++k) {
      select += fmt::format("{} AS pf_k{}, ", parts->keys[k].first, k + 1);
      group += (k ? ", " : "") + parts->keys[k].first;
      join_predicates.push_back(fmt::format("{}.pf_k{} = {}", alias, k + 1, parts->keys[k].second));
    }
    derived += fmt::format(", (SELECT {}{} AS pf_v FROM {}{} GROUP BY {}) {}", select, parts->select_list,
                           parts->from, joined_locals(parts->locals), group, alias);
    edits.push_back({node.span_begin, node.span_end, alias + ".pf_v"});
  }
  if (n == 0) return;
  std::string predicates;
  for (const std::string& p : join_predicates) predicates += p + " AND ";
  edits.push_back({outer->from->end, outer->from->end, derived});
  edits.push_back({outer->where->begin, outer->where->begin, predicates});
  out.push_back({"decorrelation", "scalar_aggregate_to_join", apply_edits(sql, edits),
                 "each correlated SUM/AVG/MIN/MAX subquery becomes one grouped derived table joined on its "
                 "correlation keys; an outer row without a group compared with NULL before and finds no "
                 "partner now, so the same rows remain"});
}

// ---- decorrelation of EXISTS: correlated EXISTS on one key -> key IN (uncorrelated subquery) ----

void exists_to_in(const LogicTree& logic, std::vector<Rewrite>& out) {
  std::vector<Edit> edits;
  bool under_or = false;
  for (const LogicNode& node : logic.nodes) {
    // An ungrouped aggregate returns one row whether or not any row matches: that EXISTS is always true.
    if (node.sublink != "EXISTS" || node.placement != "where" || !node.correlated || !node.positive_context ||
        node.parent.empty() || node.has_limit || node.has_group_by || !node.aggregates.empty())
      continue;
    const LogicNode* parent = logic.find(node.parent);
    if (parent == nullptr || parent->id != "main") continue;
    const std::optional<Correlated> parts = split_correlated(inner_text(logic, node), node);
    if (!parts || parts->keys.size() != 1) continue;
    under_or |= !node.top_level_conjunct;
    edits.push_back({node.expression_begin, node.span_end,
                     fmt::format("{} IN (SELECT {} FROM {}{})", parts->keys[0].second, parts->keys[0].first,
                                 parts->from, joined_locals(parts->locals))});
  }
  if (edits.empty()) return;
  // Under OR it restructures an EXISTS the optimizer cannot make a semi-join; at the top it decorrelates.
  out.push_back(
      {under_or ? "exists_restructuring" : "decorrelation", "correlated_exists_to_in",
       apply_edits(logic.sql, edits),
       "EXISTS on one equality key is the key IN the uncorrelated key list; in a WHERE reached only "
       "through AND/OR, the NULL that IN may give filters the row as false does"});
}

// ---- single-pass aggregation: scalar aggregate subqueries over one FROM -> one scan with FILTER ---

void single_pass(const LogicTree& logic, std::vector<Rewrite>& out) {
  const LogicNode* main = logic.find("main");
  if (main == nullptr || !main->tables.empty() || main->has_where || main->has_group_by ||
      main->has_order_by || main->has_limit || !main->set_operation.empty())
    return;
  std::vector<Edit> edits;
  std::string from;
  for (const LogicNode& node : logic.nodes) {
    if (node.id == "main") continue;
    if (node.parent != "main") continue;
    if (node.sublink != "SCALAR" || node.placement != "select" || node.correlated || node.aggregate_filter ||
        node.aggregates.size() != 1 || node.has_group_by || node.has_having || node.has_limit ||
        node.has_distinct || node.has_window)
      return;
    const std::string body = inner_text(logic, node);
    core::Result<SelectClauses> clauses = split_select(body);
    if (!clauses || clauses->set_operation || !clauses->from || clauses->group_by || clauses->order_by ||
        clauses->limit)
      return;
    const std::string select(clauses->select.of(body));
    if (single_call(select).empty()) return;
    const std::string this_from(clauses->from->of(body));
    if (from.empty()) from = this_from;
    if (normalized(from) != normalized(this_from)) return;
    std::string replacement = select;
    if (clauses->where) replacement += fmt::format(" FILTER (WHERE {})", clauses->where->of(body));
    edits.push_back({node.span_begin, node.span_end, replacement});
  }
  if (edits.size() < 2) return;
  edits.push_back({logic.sql.size(), logic.sql.size(), " FROM " + from});
  out.push_back({"single_pass_aggregation", "scalar_subqueries_to_filter_aggregates",
                 apply_edits(logic.sql, edits),
                 "every scalar subquery aggregates the same FROM; AGG(x) FILTER (WHERE p) over one scan is "
                 "AGG over the rows where p holds, NULL (or 0 for COUNT) when none do, as before"});
}

// ---- predicate pushdown into a CTE referenced several times -------------------------------------

std::string literal_text(const Json& constant) {
  if (constant.contains("sval")) {
    std::string text = constant["sval"].value("sval", "");
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    return quoted + "'";
  }
  if (constant.contains("ival")) return std::to_string(constant["ival"].value("ival", 0));
  if (constant.contains("fval")) return constant["fval"].value("fval", "");
  return {};
}

// Each reference of CTE `name`: (alias, the `column = literal` conjuncts of its SELECT's WHERE).
void cte_references(const Json& node, const std::string& name,
                    std::vector<std::set<std::pair<std::string, std::string>>>& refs, int depth) {
  if (depth > 200) return;
  if (node.is_array()) {
    for (const Json& item : node) cte_references(item, name, refs, depth + 1);
    return;
  }
  if (!node.is_object()) return;
  const Json* select = nullptr;
  if (node.contains("SelectStmt")) select = &node["SelectStmt"];
  if (select != nullptr && select->contains("fromClause")) {
    std::vector<std::string> aliases;
    std::vector<const Json*> stack;
    for (const Json& item : (*select)["fromClause"]) stack.push_back(&item);
    while (!stack.empty()) {
      const Json* item = stack.back();
      stack.pop_back();
      if (item->contains("RangeVar") && (*item)["RangeVar"].value("relname", "") == name) {
        const Json& range = (*item)["RangeVar"];
        aliases.push_back(range.contains("alias") ? range["alias"].value("aliasname", name) : name);
      } else if (item->contains("JoinExpr")) {
        for (const char* side : {"larg", "rarg"})
          if ((*item)["JoinExpr"].contains(side)) stack.push_back(&(*item)["JoinExpr"][side]);
      }
    }
    std::vector<const Json*> conjuncts;
    if (select->contains("whereClause")) {
      const Json& where = (*select)["whereClause"];
      if (where.contains("BoolExpr") && where["BoolExpr"].value("boolop", "") == "AND_EXPR") {
        for (const Json& arg : where["BoolExpr"]["args"]) conjuncts.push_back(&arg);
      } else {
        conjuncts.push_back(&where);
      }
    }
    for (const std::string& alias : aliases) {
      std::set<std::pair<std::string, std::string>> equalities;
      for (const Json* c : conjuncts) {
        if (!c->contains("A_Expr")) continue;
        const Json& e = (*c)["A_Expr"];
        if (e.value("kind", "") != "AEXPR_OP" || !e.contains("name") || e["name"].size() != 1 ||
            e["name"][0]["String"].value("sval", "") != "=" || !e.contains("lexpr") || !e.contains("rexpr"))
          continue;
        const Json& l = e["lexpr"];
        const Json& r = e["rexpr"];
        if (!l.contains("ColumnRef") || !r.contains("A_Const")) continue;
        const Json& fields = l["ColumnRef"]["fields"];
        if (fields.size() != 2 || fields[0]["String"].value("sval", "") != alias) continue;
        const std::string literal = literal_text(r["A_Const"]);
        if (!literal.empty()) equalities.insert({fields[1]["String"].value("sval", ""), literal});
      }
      refs.push_back(std::move(equalities));
    }
  }
  for (const auto& [key, value] : node.items())
    if (value.is_structured()) cte_references(value, name, refs, depth + 1);
}

void cte_pushdown(const LogicTree& logic, std::vector<Rewrite>& out) {
  std::vector<Edit> edits;
  std::vector<std::string> pushed;
  for (const LogicNode& node : logic.nodes) {
    if (node.kind != "cte" || node.references < 2 || node.has_window || node.has_limit || node.has_having ||
        !node.set_operation.empty())
      continue;
    const std::string name = node.id.substr(4);
    std::vector<std::set<std::pair<std::string, std::string>>> refs;
    cte_references(logic.parse_tree, name, refs, 0);
    if (refs.size() != static_cast<std::size_t>(node.references) || refs.empty()) continue;
    std::set<std::pair<std::string, std::string>> common = refs.front();
    for (const auto& r : refs) {
      std::set<std::pair<std::string, std::string>> both;
      std::set_intersection(common.begin(), common.end(), r.begin(), r.end(),
                            std::inserter(both, both.begin()));
      common = std::move(both);
    }
    if (common.empty()) continue;
    const std::string body = inner_text(logic, node);
    core::Result<SelectClauses> clauses = split_select(body);
    if (!clauses || clauses->set_operation || !clauses->from) continue;
    const std::size_t offset = node.span_begin + 1;
    std::vector<std::string> group_items;
    if (clauses->group_by)
      for (const Span& item : split_items(body, *clauses->group_by))
        group_items.push_back(normalized(item.of(body)));
    std::vector<std::string> predicates;
    for (const auto& [column, literal] : common) {
      for (const Span& item_span : split_items(body, clauses->select)) {
        const std::string item(item_span.of(body));
        std::string expr = item;
        std::string output =
            item.substr(item.find_last_of(". ") == std::string::npos ? 0 : item.find_last_of(". ") + 1);
        if (std::optional<Span> as = find_keyword(item, {0, item.size()}, "as")) {
          expr = std::string(trimmed(item, {0, as->begin}).of(item));
          output = std::string(trimmed(item, {as->end, item.size()}).of(item));
        }
        if (normalized(output) != normalized(column)) continue;
        const bool grouped =
            std::find(group_items.begin(), group_items.end(), normalized(expr)) != group_items.end();
        if (clauses->group_by ? !grouped : !node.aggregates.empty()) continue;
        if (!single_call(expr).empty() || expr.find('(') != std::string::npos) continue;
        predicates.push_back(fmt::format("{} = {}", expr, literal));
        pushed.push_back(fmt::format("{}.{} = {}", name, column, literal));
        break;
      }
    }
    if (predicates.empty()) continue;
    std::string all;
    for (std::size_t i = 0; i < predicates.size(); ++i) all += (i ? " AND " : "") + predicates[i];
    if (clauses->where) {
      edits.push_back({offset + clauses->where->begin, offset + clauses->where->begin, "("});
      edits.push_back({offset + clauses->where->end, offset + clauses->where->end, ") AND " + all});
    } else {
      edits.push_back({offset + clauses->from->end, offset + clauses->from->end, " WHERE " + all});
    }
  }
  if (edits.empty()) return;
  out.push_back(
      {"global_predicate_pushdown", "cte_filter_pushdown", apply_edits(logic.sql, edits),
       fmt::format("every reference of the CTE keeps only rows with {}, a grouping column of the CTE, so "
                   "filtering its input first leaves the same groups",
                   fmt::join(pushed, ", "))});
}

// ---- UNION -> UNION ALL when the branches are disjoint and each is duplicate-free ---------------

const Json* target_value(const Json& select, std::size_t i) {
  if (!select.contains("targetList") || i >= select["targetList"].size()) return nullptr;
  const Json& target = select["targetList"][i];
  if (!target.contains("ResTarget") || !target["ResTarget"].contains("val")) return nullptr;
  return &target["ResTarget"]["val"];
}

bool duplicate_free(const Json& select, const SchemaFacts& facts) {
  if (select.contains("distinctClause")) return true;
  const std::size_t width = select.contains("targetList") ? select["targetList"].size() : 0;
  if (select.contains("groupClause")) {
    for (const Json& group : select["groupClause"]) {
      bool listed = false;
      for (std::size_t i = 0; i < width; ++i)
        if (const Json* value = target_value(select, i); value != nullptr && *value == group) listed = true;
      // Locations differ between the GROUP BY and the select list: compare the fields only.
      for (std::size_t i = 0; i < width && !listed; ++i) {
        const Json* value = target_value(select, i);
        if (value != nullptr && value->contains("ColumnRef") && group.contains("ColumnRef") &&
            (*value)["ColumnRef"]["fields"] == group["ColumnRef"]["fields"])
          listed = true;
      }
      if (!listed) return false;
    }
    return true;  // HAVING only drops groups
  }
  if (!select.contains("fromClause") || select["fromClause"].size() != 1 ||
      !select["fromClause"][0].contains("RangeVar"))
    return false;
  const std::string table = select["fromClause"][0]["RangeVar"].value("relname", "");
  auto unique = facts.unique_columns.find(table);
  if (unique == facts.unique_columns.end()) return false;
  for (std::size_t i = 0; i < width; ++i) {
    const Json* value = target_value(select, i);
    if (value == nullptr || !value->contains("ColumnRef")) continue;
    const Json& fields = (*value)["ColumnRef"]["fields"];
    if (!fields.empty() && fields.back().contains("String") &&
        unique->second.contains(fields.back()["String"].value("sval", "")))
      return true;
  }
  return false;
}

void union_all(const LogicTree& logic, const SchemaFacts& facts, std::vector<Rewrite>& out) {
  const Json& stmt = logic.parse_tree["stmts"][0]["stmt"]["SelectStmt"];
  if (stmt.value("op", "") != "SETOP_UNION" || stmt.value("all", false) || !stmt.contains("larg") ||
      !stmt.contains("rarg"))
    return;
  const Json& left = stmt["larg"];
  const Json& right = stmt["rarg"];
  if (left.value("op", "SETOP_NONE") != "SETOP_NONE" || right.value("op", "SETOP_NONE") != "SETOP_NONE")
    return;
  // Disjoint: one output position holds different constants in the two branches.
  std::optional<std::size_t> position;
  const std::size_t width = left.contains("targetList") ? left["targetList"].size() : 0;
  for (std::size_t i = 0; i < width && !position; ++i) {
    const Json* l = target_value(left, i);
    const Json* r = target_value(right, i);
    if (l == nullptr || r == nullptr || !l->contains("A_Const") || !r->contains("A_Const")) continue;
    const std::string a = literal_text((*l)["A_Const"]);
    const std::string b = literal_text((*r)["A_Const"]);
    if (!a.empty() && !b.empty() && a != b) position = i;
  }
  if (!position || !duplicate_free(left, facts) || !duplicate_free(right, facts)) return;
  std::optional<Span> keyword = find_keyword(logic.sql, {0, logic.sql.size()}, "union");
  if (!keyword) return;
  out.push_back(
      {"union_consolidation", "disjoint_union_to_union_all",
       apply_edits(logic.sql, {{keyword->begin, keyword->end, "UNION ALL"}}),
       fmt::format("output column {} holds a different constant in each branch, so no row occurs in "
                   "both, and each branch is duplicate-free (DISTINCT, its GROUP BY keys, or a unique "
                   "column): UNION ALL returns the same rows without the deduplication",
                   *position + 1)});
}

}  // namespace

std::vector<Rewrite> propose_rewrites(const LogicTree& logic, const std::vector<Finding>& findings,
                                      const SchemaFacts& facts) {
  std::vector<Rewrite> out;
  if (logic.empty()) return out;
  if (found(findings, "decorrelation")) decorrelate_scalar(logic, out);
  if (found(findings, "decorrelation") || found(findings, "exists_restructuring")) exists_to_in(logic, out);
  if (found(findings, "single_pass_aggregation")) single_pass(logic, out);
  if (found(findings, "global_predicate_pushdown")) cte_pushdown(logic, out);
  if (found(findings, "union_consolidation")) union_all(logic, facts, out);
  return out;
}

}  // namespace planfirst::sqlopt
