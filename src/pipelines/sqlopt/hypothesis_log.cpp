#include "pipelines/sqlopt/hypothesis_log.hpp"

#include <fmt/format.h>

#include "core/content_hash.hpp"
#include "data/sqlite_database.hpp"

namespace planfirst::sqlopt {

namespace {

// A count SQLite returned: an integer, or a double when the column's type was inferred so.
long long count_of(const data::Value& value) {
  if (value.kind() == data::Value::Kind::kInt) return value.as_int();
  if (value.kind() == data::Value::Kind::kDouble) return static_cast<long long>(value.as_double());
  return 0;
}

}  // namespace

std::string query_fingerprint(std::string_view sql) {
  return fmt::format("{:016x}", core::fmix64(core::fnv1a64(sql)));
}

core::Result<HypothesisLog> HypothesisLog::open(std::string_view path) {
  core::Result<std::unique_ptr<data::SqliteDatabase>> db = data::SqliteDatabase::open(path);
  if (!db) return db.error();
  core::Result<void> created = (*db)->exec(
      "CREATE TABLE IF NOT EXISTS hypotheses (id INTEGER PRIMARY KEY, query_fingerprint TEXT NOT NULL, "
      "engine TEXT NOT NULL, transform TEXT NOT NULL, rule TEXT NOT NULL, status TEXT NOT NULL, "
      "equivalent INTEGER, speedup REAL, verdict TEXT)");
  if (!created) {
    core::Error error = created.error();
    error.where = std::string(path);
    return error;
  }
  return HypothesisLog(std::move(*db));
}

core::Result<long long> HypothesisLog::hypothesize(const std::string& fingerprint, const std::string& engine,
                                                   const std::string& transform, const std::string& rule) {
  core::Result<data::QueryResult> row = db_->query(
      "INSERT INTO hypotheses (query_fingerprint, engine, transform, rule, status) VALUES (?, ?, ?, ?, "
      "'HYPOTHESIZED') RETURNING id",
      {fingerprint, engine, transform, rule});
  if (!row) return row.error();
  if (row->row_count() != 1) return core::internal_error("no id for the new hypothesis");
  return count_of(row->at(0, 0));
}

core::Result<void> HypothesisLog::settle(long long id, bool equivalent, double speedup,
                                         const std::string& verdict) {
  if (core::Result<data::QueryResult> tested = db_->query(
          "UPDATE hypotheses SET status = 'TESTED', equivalent = ?, speedup = ?, verdict = ? WHERE id = ?",
          {equivalent, speedup, verdict, id});
      !tested)
    return tested.error();
  const char* final_status = equivalent && verdict == "WIN" ? "CONFIRMED" : "REJECTED";
  core::Result<data::QueryResult> settled =
      db_->query("UPDATE hypotheses SET status = ? WHERE id = ? AND status = 'TESTED'", {final_status, id});
  if (!settled) return settled.error();
  return core::ok();
}

core::Result<std::string> HypothesisLog::status(long long id) {
  core::Result<data::QueryResult> row = db_->query("SELECT status FROM hypotheses WHERE id = ?", {id});
  if (!row) return row.error();
  if (row->row_count() != 1) return core::not_found(fmt::format("no hypothesis {}", id));
  return row->at(0, 0).to_string();
}

core::Result<std::vector<LeaderboardRow>> HypothesisLog::leaderboard() {
  core::Result<data::QueryResult> rows = db_->query(
      "SELECT transform, engine, COUNT(*) AS tested, SUM(status = 'CONFIRMED') AS confirmed "
      "FROM hypotheses WHERE status IN ('CONFIRMED', 'REJECTED') GROUP BY transform, engine "
      "ORDER BY CAST(SUM(status = 'CONFIRMED') AS REAL) / COUNT(*) DESC, transform, engine");
  if (!rows) return rows.error();
  std::vector<LeaderboardRow> out;
  for (std::size_t r = 0; r < rows->row_count(); ++r) {
    LeaderboardRow row{rows->at(r, 0).to_string(), rows->at(r, 1).to_string(), count_of(rows->at(r, 2)),
                       count_of(rows->at(r, 3)), 0};
    row.success_rate =
        row.tested > 0 ? static_cast<double>(row.confirmed) / static_cast<double>(row.tested) : 0;
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace planfirst::sqlopt
