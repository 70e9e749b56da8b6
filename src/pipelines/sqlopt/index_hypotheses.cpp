#include "pipelines/sqlopt/index_hypotheses.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "data/sql_quoting.hpp"
#include "pipelines/sqlopt/sql_statement.hpp"
#include "pipelines/sqlopt/sql_text.hpp"

namespace planfirst::sqlopt {
namespace {

// A Seq Scan is worth an index when its filter removes at least this share of
// the rows it reads, and it reads at least kMinRowsRead over all its loops.
constexpr double kMinRemovedShare = 0.9;
constexpr double kMinRowsRead = 1000;
constexpr std::size_t kMaxColumns = 3;

// "orders o" -> {"orders", "o"}; "orders" -> {"orders", "orders"}.
std::pair<std::string, std::string> table_and_alias(const std::string &table) {
  const std::size_t space = table.find(' ');
  if (space == std::string::npos) return {table, table};
  return {table.substr(0, space), table.substr(space + 1)};
}

bool operator_char(char c) {
  return c == '<' || c == '>' || c == '=' || c == '!';
}

// The comparison operator right after `at`, past ")", blanks and "::type"
// casts; "" when none.
std::string operator_after(const std::string &text, std::size_t at) {
  while (at < text.size()) {
    if (text[at] == ')' || text[at] == ' ') {
      ++at;
    } else if (text.compare(at, 2, "::") == 0) {
      at += 2;
      while (at < text.size() && word_char(text[at])) ++at;
    } else {
      break;
    }
  }
  std::string op;
  while (at < text.size() && operator_char(text[at])) op += text[at++];
  return op;
}

// The comparison operator right before `at`, past "(" and blanks; "" when none.
std::string operator_before(const std::string &text, std::size_t at) {
  while (at > 0 && (text[at - 1] == '(' || text[at - 1] == ' ')) --at;
  std::string op;
  while (at > 0 && operator_char(text[at - 1])) op.insert(op.begin(), text[--at]);
  return op;
}

// Columns `alias.col` that `condition` compares (=, <, >, <=, >=), equality
// first, unique, at most kMaxColumns.
std::vector<std::string> compared_columns(const std::string &condition, const std::string &alias) {
  std::vector<std::string> equal, range;
  const std::string prefix = alias + ".";
  for (std::size_t at = condition.find(prefix); at != std::string::npos;
       at = condition.find(prefix, at + 1)) {
    if (at > 0 && (word_char(condition[at - 1]) || condition[at - 1] == '.' || condition[at - 1] == '"'))
      continue;
    std::size_t end = at + prefix.size();
    while (end < condition.size() && word_char(condition[end])) ++end;
    const std::string column = condition.substr(at + prefix.size(), end - at - prefix.size());
    std::string op = operator_after(condition, end);
    if (op.empty()) op = operator_before(condition, at);
    static const std::set<std::string> kRange = {"<", ">", "<=", ">="};
    if (column.empty() || (op != "=" && !kRange.contains(op))) continue;
    if (std::find(equal.begin(), equal.end(), column) != equal.end() ||
        std::find(range.begin(), range.end(), column) != range.end())
      continue;
    (op == "=" ? equal : range).push_back(column);
  }
  equal.insert(equal.end(), range.begin(), range.end());
  if (equal.size() > kMaxColumns) equal.resize(kMaxColumns);
  return equal;
}

double total_cost(const core::Json &explain) {
  if (!explain.is_array() || explain.empty() || !explain[0].contains("Plan")) return 0;
  return explain[0]["Plan"].value("Total Cost", 0.0);
}

bool names_index(const core::Json &json, const std::string &index) {
  if (json.is_object()) {
    if (json.contains("Index Name") && json["Index Name"] == index) return true;
    for (const auto &[key, value] : json.items())
      if (names_index(value, index)) return true;
  } else if (json.is_array()) {
    for (const core::Json &item : json)
      if (names_index(item, index)) return true;
  }
  return false;
}

// Drops every hypothetical index of the connection.
core::Result<void> reset_hypothetical(data::Database &db) {
  core::Result<data::QueryResult> reset = db.query("SELECT hypopg_reset()");
  if (!reset) return reset.error();
  return core::ok();
}

}  // namespace

std::string IndexCandidate::statement() const {
  std::string list;
  // Every name quoted: the plan gives them as the catalog spells them, and a bare one could be a
  // keyword ("order", "user") that would fail the whole run.
  for (const std::string &column : columns)
    list += (list.empty() ? "" : ", ") + data::quote_identifier(column);
  return fmt::format("CREATE INDEX ON {} ({})", data::quote_identifier(table), list);
}

std::vector<IndexCandidate> index_candidates(const PlanTree &plan) {
  std::vector<IndexCandidate> out;
  std::set<std::pair<std::string, std::vector<std::string>>> seen;
  auto add = [&](const PlanNode &scan, const std::string &condition, std::string reason) {
    const auto [table, alias] = table_and_alias(scan.table);
    std::vector<std::string> columns = compared_columns(condition, alias);
    if (table.empty() || columns.empty() || !seen.insert({table, columns}).second) return;
    out.push_back({table, std::move(columns), std::move(reason)});
  };
  for (const PlanNode &node : plan.nodes) {
    if (node.op == "Seq Scan" && !node.filter.empty() && node.rows_removed && node.actual_rows) {
      const double read = *node.rows_removed + *node.actual_rows;
      if (read >= kMinRowsRead && *node.rows_removed >= kMinRemovedShare * read)
        add(node, node.filter,
            fmt::format("Seq Scan on {} keeps {:.0f} of the {:.0f} rows it "
                        "reads over {:.0f} loop(s)",
                        node.table, *node.actual_rows, read, node.loops));
    }
    if ((node.op == "Nested Loop" || node.op == "Merge Join") && node.children.size() == 2) {
      for (std::size_t side = 0; side < 2; ++side) {
        const PlanNode *scan = &plan.nodes[node.children[side]];
        const bool sorted = scan->op == "Sort" && scan->children.size() == 1;
        if (sorted) scan = &plan.nodes[scan->children[0]];
        if (scan->op != "Seq Scan") continue;
        if (node.op == "Nested Loop" && (side != 1 || scan->loops <= 1)) continue;
        if (node.op == "Merge Join" && !sorted) continue;
        add(*scan, node.join_condition,
            node.op == "Nested Loop"
                ? fmt::format("Nested Loop probes a Seq Scan on {} {:.0f} times", scan->table, scan->loops)
                : fmt::format("Sort of a Seq Scan on {} feeds a Merge Join", scan->table));
      }
    }
  }
  return out;
}

core::Json IndexHypotheses::to_json() const {
  core::Json list = core::Json::array();
  for (const IndexHypothesis &h : indexes) {
    list.push_back({{"table", h.candidate.table},
                    {"columns", h.candidate.columns},
                    {"statement", h.candidate.statement()},
                    {"reason", h.candidate.reason},
                    {"estimated_cost_before", h.cost_before},
                    {"estimated_cost_after", h.cost_after},
                    {"planner_uses_it", h.used},
                    {"estimated", true}});
  }
  return {{"available", available}, {"note", note}, {"indexes", std::move(list)}};
}

std::string IndexHypotheses::to_text() const {
  std::string out = "\nIndex hypotheses (HypoPG; planner estimates, not measured):\n";
  if (indexes.empty()) return out + "  " + note + "\n";
  for (const IndexHypothesis &h : indexes) {
    out += fmt::format("- {}: estimated cost {:.2f} -> {:.2f}; the planner {} it ({})\n",
                       h.candidate.statement(), h.cost_before, h.cost_after,
                       h.used ? "would use" : "would not use", h.candidate.reason);
  }
  return out;
}

core::Result<IndexHypotheses> hypothesize_indexes(SqlSession &session, const std::string &sql,
                                                  const PlanTree &plan) {
  if (session.engine() != Engine::kPostgres)
    return core::failed_precondition("index hypotheses need PostgreSQL with HypoPG");
  if (core::Result<void> checked = session.check_select(sql); !checked) return checked.error();
  const std::string statement = trimmed_statement(sql);
  IndexHypotheses out;
  const std::vector<IndexCandidate> candidates = index_candidates(plan);
  bool created_any = false;
  core::Result<void> done = session.read_only([&](data::Database &db) -> core::Result<void> {
    core::Result<data::QueryResult> installed = db.query(
        "SELECT count(*) FROM pg_catalog.pg_extension WHERE extname = "
        "'hypopg'");
    if (!installed) return installed.error();
    out.available = installed->at(0, 0).as_int() > 0;
    if (!out.available) {
      out.note = kNoHypoPg;
      return core::ok();
    }
    if (candidates.empty()) {
      out.note =
          "no Seq Scan, Nested Loop or Merge Join of the plan suggests "
          "an index";
      return core::ok();
    }
    core::Result<core::Json> before = db.explain_json(statement, /*analyze=*/false);
    if (!before) return before.error();
    for (const IndexCandidate &candidate : candidates) {
      created_any = true;  // a failed call may still have created it: reset below either way
      core::Result<data::QueryResult> created = db.query(
          "SELECT indexrelid::bigint, indexname::text FROM "
          "hypopg_create_index($1)",
          {candidate.statement()});
      if (!created) return created.error();
      if (created->row_count() != 1) return core::internal_error("hypopg_create_index created no index");
      const std::string name = created->at(0, 1).to_string();
      core::Result<core::Json> after = db.explain_json(statement, /*analyze=*/false);
      // Each index alone: the next candidate is planned without this one.
      core::Result<data::QueryResult> dropped =
          db.query("SELECT hypopg_drop_index($1::oid)", {created->at(0, 0)});
      if (!after) return after.error();
      if (!dropped) return dropped.error();
      out.indexes.push_back({candidate, total_cost(*before), total_cost(*after), names_index(*after, name)});
    }
    return reset_hypothetical(db);
  });
  if (!done && created_any) {
    // Hypothetical indexes live in the connection, not the transaction: the rollback of a failed
    // run keeps them, so they are reset in a transaction of their own before the error is told.
    (void)session.read_only(reset_hypothetical);
  }
  if (!done) return done.error();
  return out;
}

}  // namespace planfirst::sqlopt
