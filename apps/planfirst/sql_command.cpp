// planfirst sql analyze|validate: the SQL analyst of seed 004. `analyze` reads a query's EXPLAIN
// ANALYZE plan (collected read-only from DuckDB or PostgreSQL, or from a file) and prints the plan
// tree, the Q-error routing, the logic tree and the findings; `validate` proves a rewrite: same rows,
// then timed runs and a verdict, with the plan diff.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "pipelines/sqlopt/analysis.hpp"
#include "pipelines/sqlopt/hypothesis_log.hpp"
#include "pipelines/sqlopt/optimizer.hpp"
#include "pipelines/sqlopt/plan_reader.hpp"
#include "pipelines/sqlopt/sql_session.hpp"
#include "pipelines/sqlopt/sql_statement.hpp"
#include "pipelines/sqlopt/validation.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

using sqlopt::SqlSession;

struct SqlOptions {
  std::string db;
  std::string plan;
  std::string query;
  std::string query_b;
  std::string store;  // --store FILE: the hypothesis log (SQLite)
  double timeout_seconds = 60;
  bool json = false;
};

int fail(const std::string& command, const core::Error& error) {
  std::cerr << "planfirst sql " << command << ": " << error.describe() << "\n";
  switch (error.code) {
    case core::ErrorCode::kInvalidArgument:
    case core::ErrorCode::kNotFound:
    case core::ErrorCode::kFailedPrecondition: return kExitInputError;
    default: return kExitCheckFailed;
  }
}

int usage(const std::string& command, const std::string& message) {
  std::cerr << "planfirst sql " << command << ": " << message << "\n";
  return kExitUsage;
}

core::Result<std::string> read_sql(const std::string& file) {
  core::Result<std::string> text = read_input(file);
  if (!text) return text.error();
  if (sqlopt::trimmed_statement(*text).empty()) return core::invalid_argument("the file holds no SQL", file);
  return text;
}

core::Result<SqlSession> open_session(const SqlOptions& options) {
  const auto timeout = std::chrono::milliseconds(static_cast<long long>(options.timeout_seconds * 1000));
  return SqlSession::open(options.db, timeout);
}

// `error` of the SQL in `file`, named before the line and column: "slow.sql: line 3, column 16".
core::Error in_file(core::Error error, const std::string& file) {
  error.where = file + (error.where.empty() ? "" : ": " + error.where);
  return error;
}

// The logic tree of `sql`, with the file named in a parse error.
core::Result<sqlopt::LogicTree> logic_of(const std::string& sql, const std::string& file) {
  core::Result<sqlopt::LogicTree> logic = sqlopt::build_logic_tree(sql);
  if (!logic) return in_file(logic.error(), file);
  return logic;
}

int run_analyze(const SqlOptions& options, const CliContext& ctx) {
  const std::string command = "analyze";
  if (options.db.empty() == options.plan.empty())
    return usage(command, "give either --db URI QUERY.sql or --plan FILE");
  if (!options.db.empty() && options.query.empty()) return usage(command, "--db needs QUERY.sql");
  core::Result<sqlopt::SqlKnowledge> knowledge = sqlopt::SqlKnowledge::load(asset_store(ctx));
  if (!knowledge) return fail(command, knowledge.error());
  std::string sql;
  if (!options.query.empty()) {
    core::Result<std::string> text = read_sql(options.query);
    if (!text) return fail(command, text.error());
    sql = *text;
  }
  sqlopt::PlanTree plan;
  sqlopt::LogicTree logic;
  std::optional<std::string> version;
  if (!options.plan.empty()) {
    core::Result<std::string> text = read_input(options.plan);
    if (!text) return fail(command, text.error());
    core::Result<sqlopt::PlanTree> read = sqlopt::read_plan_text(*text, options.plan);
    if (!read) return fail(command, read.error());
    plan = std::move(*read);
    if (!sql.empty()) {
      core::Result<sqlopt::LogicTree> tree = logic_of(sql, options.query);
      if (!tree) return fail(command, tree.error());
      logic = std::move(*tree);
    }
  } else {
    core::Result<SqlSession> session = open_session(options);
    if (!session) return fail(command, session.error());
    if (core::Result<void> checked = session->check_select(sql); !checked)
      return fail(command, in_file(checked.error(), options.query));
    core::Result<sqlopt::LogicTree> tree = logic_of(sql, options.query);
    if (tree) logic = std::move(*tree);  // DuckDB-only syntax: the plan is still read
    core::Result<std::string> running = session->server_version();
    if (!running) return fail(command, running.error());
    version = std::move(*running);
    core::Result<sqlopt::PlanTree> collected = session->explain_analyze(sql);
    if (!collected) return fail(command, collected.error());
    plan = std::move(*collected);
  }
  const sqlopt::Analysis analysis =
      sqlopt::analyze_plan(std::move(plan), std::move(logic), *knowledge, std::move(version));
  if (options.json) {
    std::cout << analysis.to_json().dump(2) << "\n";
  } else {
    std::cout << analysis.to_text();
  }
  return kExitOk;
}

int run_validate(const SqlOptions& options) {
  const std::string command = "validate";
  core::Result<std::string> a = read_sql(options.query);
  if (!a) return fail(command, a.error());
  core::Result<std::string> b = read_sql(options.query_b);
  if (!b) return fail(command, b.error());
  core::Result<SqlSession> session = open_session(options);
  if (!session) return fail(command, session.error());
  for (const auto& [file, sql] : {std::pair{options.query, *a}, std::pair{options.query_b, *b}}) {
    if (core::Result<void> checked = session->check_select(sql); !checked)
      return fail(command, in_file(checked.error(), file));
  }
  core::Result<sqlopt::Validation> validation = sqlopt::validate_rewrite(*session, *a, *b);
  if (!validation) return fail(command, validation.error());
  if (options.json) {
    core::Json out = validation->to_json();
    out["engine"] = sqlopt::to_string(session->engine());
    std::cout << out.dump(2) << "\n";
  } else {
    std::cout << "Engine: " << sqlopt::to_string(session->engine()) << "\n";
    if (validation->equivalence.equal) {
      std::cout << "Rows: same multiset\n";
      std::cout << "Timing: median " << validation->median_a_ms << " ms -> " << validation->median_b_ms
                << " ms (1 warm-up + 5 runs each), speedup " << validation->speedup << "x\n";
    } else {
      std::cout << "Rows: differ: " << validation->equivalence.difference << "\n";
    }
    std::cout << "Verdict: " << sqlopt::to_string(validation->verdict) << "\n\nPlan diff:\n"
              << validation->diff.to_text();
  }
  return validation->equivalence.equal ? kExitOk : kExitCheckFailed;
}

// Records each candidate of `result` in the hypothesis log: HYPOTHESIZED, then settled by its proof.
core::Result<void> keep_hypotheses(const std::string& store, const std::string& sql,
                                   const SqlSession& session, const sqlopt::Optimization& result) {
  core::Result<sqlopt::HypothesisLog> log = sqlopt::HypothesisLog::open(store);
  if (!log) return log.error();
  const std::string fingerprint = sqlopt::query_fingerprint(sql);
  for (const sqlopt::Candidate& c : result.candidates) {
    core::Result<long long> id = log->hypothesize(fingerprint, sqlopt::to_string(session.engine()),
                                                  c.rewrite.transform, c.rewrite.rule);
    if (!id) return id.error();
    if (core::Result<void> settled = log->settle(*id, c.validation.equivalence.equal, c.validation.speedup,
                                                 sqlopt::to_string(c.validation.verdict));
        !settled)
      return settled.error();
  }
  return core::ok();
}

int run_optimize(const SqlOptions& options, const CliContext& ctx) {
  const std::string command = "optimize";
  core::Result<sqlopt::SqlKnowledge> knowledge = sqlopt::SqlKnowledge::load(asset_store(ctx));
  if (!knowledge) return fail(command, knowledge.error());
  core::Result<std::string> sql = read_sql(options.query);
  if (!sql) return fail(command, sql.error());
  core::Result<SqlSession> session = open_session(options);
  if (!session) return fail(command, session.error());
  if (core::Result<void> checked = session->check_select(*sql); !checked)
    return fail(command, in_file(checked.error(), options.query));
  core::Result<sqlopt::Optimization> result = sqlopt::optimize_query(*session, *sql, *knowledge);
  if (!result) {
    const core::Error& error = result.error();
    return fail(command,
                error.code == core::ErrorCode::kInvalidArgument ? in_file(error, options.query) : error);
  }
  if (!options.store.empty()) {
    if (core::Result<void> kept = keep_hypotheses(options.store, *sql, *session, *result); !kept)
      return fail(command, kept.error());
  }
  std::cout << (options.json ? result->to_json().dump(2) + "\n" : result->to_text());
  return kExitOk;
}

int run_leaderboard(const SqlOptions& options) {
  core::Result<sqlopt::HypothesisLog> log = sqlopt::HypothesisLog::open(options.store);
  if (!log) return fail("leaderboard", log.error());
  core::Result<std::vector<sqlopt::LeaderboardRow>> rows = log->leaderboard();
  if (!rows) return fail("leaderboard", rows.error());
  core::Json out = core::Json::array();
  for (const sqlopt::LeaderboardRow& row : *rows) {
    out.push_back({{"transform", row.transform},
                   {"engine", row.engine},
                   {"tested", row.tested},
                   {"confirmed", row.confirmed},
                   {"success_rate", row.success_rate}});
  }
  if (options.json) {
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  if (rows->empty()) std::cout << "No settled hypotheses yet.\n";
  for (const sqlopt::LeaderboardRow& row : *rows)
    std::cout << row.transform << " on " << row.engine << ": " << row.confirmed << " of " << row.tested
              << " confirmed (" << static_cast<int>(row.success_rate * 100 + 0.5) << "%)\n";
  return kExitOk;
}

void add_common(CLI::App* command, SqlOptions& options) {
  command->add_option("--timeout", options.timeout_seconds, "Statement timeout in seconds (default 60)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--json", options.json, "Print one JSON document");
}

constexpr const char* kExitFooter =
    "Exit codes: 0 ok; 1 the database is unreachable, a statement timed out, or (validate) the rows differ;\n"
    "2 usage; 3 input error (missing file, SQL parse error with line and column, a statement that is\n"
    "not a single SELECT, a malformed plan naming the JSON pointer).\n";

}  // namespace

void add_sql_command(CLI::App& app, CliContext& ctx) {
  CLI::App* sql =
      app.add_subcommand("sql", "The SQL analyst: read a plan, find the bottleneck, prove a rewrite");
  sql->require_subcommand(1);

  auto analyze = std::make_shared<SqlOptions>();
  CLI::App* analyze_cmd = sql->add_subcommand(
      "analyze",
      "EXPLAIN ANALYZE a SELECT read-only (DuckDB file or PostgreSQL), or read a captured plan, and print\n"
      "the plan tree, Q-error routing, logic tree and findings");
  analyze_cmd->add_option("QUERY", analyze->query, "The query (.sql file, or - for standard input)");
  analyze_cmd->add_option("--db", analyze->db, "duckdb:PATH, PATH.duckdb or postgresql://...");
  analyze_cmd->add_option("--plan", analyze->plan,
                          "A captured plan: PostgreSQL EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output or a\n"
                          "DuckDB JSON profile");
  add_common(analyze_cmd, *analyze);
  analyze_cmd->footer(std::string("Examples:\n  planfirst sql analyze --db shop.duckdb slow.sql\n"
                                  "  planfirst sql analyze --plan plan.json --json\n") +
                      kExitFooter);
  analyze_cmd->callback([analyze, &ctx] {
    if (prepare_run(ctx)) ctx.exit_code = run_analyze(*analyze, ctx);
  });

  auto validate = std::make_shared<SqlOptions>();
  CLI::App* validate_cmd = sql->add_subcommand(
      "validate",
      "Prove B is an equivalent, faster rewrite of A: same rows, 1 warm-up + 5 runs, median, verdict");
  validate_cmd->add_option("A", validate->query, "The original query (.sql)")->required();
  validate_cmd->add_option("B", validate->query_b, "The rewrite (.sql)")->required();
  validate_cmd->add_option("--db", validate->db, "duckdb:PATH, PATH.duckdb or postgresql://...")->required();
  add_common(validate_cmd, *validate);
  validate_cmd->footer(std::string("Verdicts: WIN >= 1.10x, REGRESSION < 0.95x, else NEUTRAL.\n") +
                       kExitFooter);
  validate_cmd->callback([validate, &ctx] {
    if (prepare_run(ctx)) ctx.exit_code = run_validate(*validate);
  });

  auto optimize = std::make_shared<SqlOptions>();
  CLI::App* optimize_cmd = sql->add_subcommand(
      "optimize",
      "The whole loop, offline: analyze, find, rewrite by rule, prove each rewrite; recommends only a\n"
      "verified WIN");
  optimize_cmd->add_option("QUERY", optimize->query, "The query (.sql)")->required();
  optimize_cmd->add_option("--db", optimize->db, "duckdb:PATH, PATH.duckdb or postgresql://...")->required();
  add_common(optimize_cmd, *optimize);
  optimize_cmd->add_option(
      "--store", optimize->store,
      "Keep each candidate's hypothesis lifecycle in this SQLite file (for leaderboard)");
  optimize_cmd->footer(kExitFooter);
  optimize_cmd->callback([optimize, &ctx] {
    if (prepare_run(ctx)) ctx.exit_code = run_optimize(*optimize, ctx);
  });

  auto leaderboard = std::make_shared<SqlOptions>();
  CLI::App* leaderboard_cmd = sql->add_subcommand(
      "leaderboard", "The strategy leaderboard: confirmed / tested hypotheses per transform and engine");
  leaderboard_cmd->add_option("--store", leaderboard->store, "The SQLite file optimize --store wrote")
      ->required();
  leaderboard_cmd->add_flag("--json", leaderboard->json, "Print one JSON document");
  leaderboard_cmd->callback([leaderboard, &ctx] {
    if (prepare_run(ctx)) ctx.exit_code = run_leaderboard(*leaderboard);
  });
}

}  // namespace planfirst::cli
