#include "server/sqlite_run_store.hpp"

#include <sqlite3.h>

#include <string>
#include <unordered_map>
#include <utility>

#include "graph/sqlite_statement.hpp"

namespace planfirst::server {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS planfirst_server_threads (
  thread_id TEXT NOT NULL PRIMARY KEY, assistant_id TEXT NOT NULL, metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS planfirst_server_runs (
  position INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL UNIQUE, thread_id TEXT NOT NULL,
  assistant_id TEXT NOT NULL, status TEXT NOT NULL, multitask_strategy TEXT NOT NULL, input TEXT NOT NULL,
  resume_checkpoint_id TEXT NOT NULL, resume_answer TEXT NOT NULL, stream_modes TEXT NOT NULL,
  start_checkpoint_id TEXT NOT NULL, started INTEGER NOT NULL, result TEXT NOT NULL, worker TEXT NOT NULL,
  lease_until INTEGER NOT NULL, attempt INTEGER NOT NULL, cancel_requested INTEGER NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS planfirst_server_runs_thread ON planfirst_server_runs (thread_id, status);
CREATE INDEX IF NOT EXISTS planfirst_server_runs_status ON planfirst_server_runs (status, position);
CREATE TABLE IF NOT EXISTS planfirst_server_events (
  run_id TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, event TEXT NOT NULL, data TEXT NOT NULL,
  created_at INTEGER NOT NULL, PRIMARY KEY (run_id, seq)) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS planfirst_server_events_key ON planfirst_server_events (run_id, key);
)sql";

constexpr const char* kRunColumns =
    "run_id, thread_id, assistant_id, status, multitask_strategy, input, resume_checkpoint_id, "
    "resume_answer, "
    "stream_modes, start_checkpoint_id, started, result, worker, lease_until, attempt, cancel_requested, "
    "created_at, updated_at";
const std::string kSelectRun =
    std::string("SELECT ") + kRunColumns + " FROM planfirst_server_runs WHERE run_id = ?1";
const std::string kSelectThreadRuns =
    std::string("SELECT ") + kRunColumns +
    " FROM planfirst_server_runs WHERE thread_id = ?1 ORDER BY position DESC";

RunRecord read_run(const graph::SqliteUse& row) {
  RunRecord run;
  run.run_id = row.column_text(0);
  run.thread_id = row.column_text(1);
  run.assistant_id = row.column_text(2);
  run.status = parse_run_status(row.column_text(3)).value_or(RunStatus::kError);
  run.multitask_strategy = row.column_text(4);
  run.input_json = row.column_text(5);
  run.resume_checkpoint_id = row.column_text(6);
  run.resume_answer = row.column_text(7);
  run.stream_modes = row.column_text(8);
  run.start_checkpoint_id = row.column_text(9);
  run.started = row.column_integer(10) != 0;
  run.result_json = row.column_text(11);
  run.worker = row.column_text(12);
  run.lease_until = row.column_integer(13);
  run.attempt = static_cast<int>(row.column_integer(14));
  run.cancel_requested = row.column_integer(15) != 0;
  run.created_at = row.column_integer(16);
  run.updated_at = row.column_integer(17);
  return run;
}

ThreadRecord read_thread(const graph::SqliteUse& row) {
  return ThreadRecord{row.column_text(0), row.column_text(1), row.column_text(2), row.column_integer(3),
                      row.column_integer(4)};
}

}  // namespace

struct SqliteRunStore::Database {
  graph::SqliteDatabaseHandle db;
  // Prepared once, by their SQL text; declared after `db`, so finalized before it closes.
  std::unordered_map<std::string, graph::SqliteStatementHandle> statements;

  core::Error error(std::string_view doing) const {
    return graph::sqlite_error(db.get(), sqlite3_errcode(db.get()), doing);
  }
  // The statement of `sql`, prepared on first use; null when it does not prepare (its use then
  // fails to step, and error() names SQLite's message).
  sqlite3_stmt* prepared(const std::string& sql) {
    auto found = statements.find(sql);
    if (found != statements.end()) return found->second.get();
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v3(db.get(), sql.c_str(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                           &statement, nullptr) != SQLITE_OK)
      return nullptr;
    statements.emplace(sql, graph::SqliteStatementHandle(statement));
    return statement;
  }

  core::Result<void> exec(const char* sql, std::string_view doing) {
    if (sqlite3_exec(db.get(), sql, nullptr, nullptr, nullptr) != SQLITE_OK) return error(doing);
    return core::ok();
  }
  // Runs `body` inside BEGIN IMMEDIATE ... COMMIT (ROLLBACK when it fails).
  template <typename T, typename Body>
  core::Result<T> transaction(Body body) {
    if (auto begun = exec("BEGIN IMMEDIATE", "begin"); !begun) return begun.error();
    core::Result<T> result = body();
    if (!result) {
      (void)exec("ROLLBACK", "rollback");
      return result;
    }
    if (auto committed = exec("COMMIT", "commit"); !committed) {
      (void)exec("ROLLBACK", "rollback");
      return committed.error();
    }
    return result;
  }
  core::Result<void> done(graph::SqliteUse& use, std::string_view doing) {
    if (use.step() != SQLITE_DONE) return error(doing);
    return core::ok();
  }
};

SqliteRunStore::SqliteRunStore(std::unique_ptr<Database> db) : db_(std::move(db)) {}
SqliteRunStore::~SqliteRunStore() = default;

core::Result<std::unique_ptr<SqliteRunStore>> SqliteRunStore::open(const std::filesystem::path& path) {
  auto db = std::make_unique<Database>();
  sqlite3* raw = nullptr;
  const int opened = sqlite3_open_v2(
      path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  db->db.reset(raw);
  if (opened != SQLITE_OK) {
    return core::unavailable("cannot open the run store: " + std::string(sqlite3_errmsg(raw)), path.string());
  }
  sqlite3_busy_timeout(raw, 5000);
  for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", kSchema}) {
    if (auto ok = db->exec(sql, "creating the run store's tables"); !ok) {
      core::Error error = ok.error();
      error.where = path.string();
      return error;
    }
  }
  return std::unique_ptr<SqliteRunStore>(new SqliteRunStore(std::move(db)));
}

core::Result<void> SqliteRunStore::create_thread(const ThreadRecord& thread) {
  std::lock_guard lock(mutex_);
  return db_->transaction<void>([&]() -> core::Result<void> {
    graph::SqliteUse exists(db_->prepared("SELECT 1 FROM planfirst_server_threads WHERE thread_id = ?1"));
    if (exists.text(1, thread.thread_id).step() == SQLITE_ROW)
      return core::Error{core::ErrorCode::kConflict, "thread " + thread.thread_id + " exists", "thread_id"};
    graph::SqliteUse insert(
        db_->prepared("INSERT INTO planfirst_server_threads VALUES (?1, ?2, ?3, ?4, ?5)"));
    insert.text(1, thread.thread_id).text(2, thread.assistant_id).text(3, thread.metadata_json);
    insert.integer(4, thread.created_at).integer(5, thread.updated_at);
    return db_->done(insert, "creating a thread");
  });
}

core::Result<std::optional<ThreadRecord>> SqliteRunStore::thread(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse select(db_->prepared("SELECT * FROM planfirst_server_threads WHERE thread_id = ?1"));
  const int step = select.text(1, thread_id).step();
  if (step == SQLITE_ROW) return std::optional<ThreadRecord>(read_thread(select));
  if (step != SQLITE_DONE) return db_->error("reading a thread");
  return std::optional<ThreadRecord>();
}

core::Result<std::vector<ThreadRecord>> SqliteRunStore::threads(std::size_t limit, std::size_t offset) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse select(db_->prepared(
      "SELECT * FROM planfirst_server_threads ORDER BY updated_at DESC, thread_id LIMIT ?1 OFFSET ?2"));
  select.integer(1, static_cast<std::int64_t>(limit)).integer(2, static_cast<std::int64_t>(offset));
  std::vector<ThreadRecord> threads;
  int step = 0;
  while ((step = select.step()) == SQLITE_ROW) threads.push_back(read_thread(select));
  if (step != SQLITE_DONE) return db_->error("listing threads");
  return threads;
}

core::Result<void> SqliteRunStore::delete_thread(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  return db_->transaction<void>([&]() -> core::Result<void> {
    graph::SqliteUse events(
        db_->prepared("DELETE FROM planfirst_server_events WHERE run_id IN "
                      "(SELECT run_id FROM planfirst_server_runs WHERE thread_id = ?1)"));
    if (auto ok = db_->done(events.text(1, thread_id), "deleting events"); !ok) return ok;
    graph::SqliteUse runs(db_->prepared("DELETE FROM planfirst_server_runs WHERE thread_id = ?1"));
    if (auto ok = db_->done(runs.text(1, thread_id), "deleting runs"); !ok) return ok;
    graph::SqliteUse thread(db_->prepared("DELETE FROM planfirst_server_threads WHERE thread_id = ?1"));
    return db_->done(thread.text(1, thread_id), "deleting a thread");
  });
}

core::Result<void> SqliteRunStore::create_run(const RunRecord& run) {
  std::lock_guard lock(mutex_);
  return db_->transaction<void>([&]() -> core::Result<void> {
    graph::SqliteUse thread(
        db_->prepared("SELECT assistant_id FROM planfirst_server_threads WHERE thread_id = ?1"));
    if (thread.text(1, run.thread_id).step() != SQLITE_ROW)
      return core::not_found("no thread " + run.thread_id, "thread_id");
    const std::string bound = thread.column_text(0);
    if (!bound.empty() && bound != run.assistant_id) {
      return core::invalid_argument(
          "thread " + run.thread_id + " runs assistant " + bound + ", not " + run.assistant_id,
          "assistant_id");
    }
    graph::SqliteUse active(
        db_->prepared("SELECT run_id FROM planfirst_server_runs WHERE thread_id = ?1 AND status IN "
                      "('pending', 'running') ORDER BY position LIMIT 1"));
    if (active.text(1, run.thread_id).step() == SQLITE_ROW && run.multitask_strategy == "reject") {
      return core::Error{core::ErrorCode::kConflict,
                         "thread " + run.thread_id + " already has run " + active.column_text(0) +
                             " in progress (multitask_strategy 'enqueue' queues behind it)",
                         "multitask_strategy"};
    }
    graph::SqliteUse insert(db_->prepared(
        "INSERT INTO planfirst_server_runs (run_id, thread_id, assistant_id, status, multitask_strategy, "
        "input, resume_checkpoint_id, resume_answer, stream_modes, start_checkpoint_id, started, result, "
        "worker, lease_until, attempt, cancel_requested, created_at, updated_at) VALUES "
        "(?1, ?2, ?3, 'pending', ?4, ?5, ?6, ?7, ?8, '', 0, '{}', '', 0, 0, 0, ?9, ?9)"));
    insert.text(1, run.run_id)
        .text(2, run.thread_id)
        .text(3, run.assistant_id)
        .text(4, run.multitask_strategy);
    insert.text(5, run.input_json).text(6, run.resume_checkpoint_id).text(7, run.resume_answer);
    insert.text(8, run.stream_modes).integer(9, run.created_at);
    if (auto ok = db_->done(insert, "creating a run"); !ok) return ok;
    graph::SqliteUse bind(db_->prepared(
        "UPDATE planfirst_server_threads SET assistant_id = ?2, updated_at = ?3 WHERE thread_id = ?1"));
    bind.text(1, run.thread_id).text(2, run.assistant_id).integer(3, run.created_at);
    return db_->done(bind, "binding the thread");
  });
}

core::Result<std::optional<RunRecord>> SqliteRunStore::run(std::string_view run_id) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse select(db_->prepared(kSelectRun));
  const int step = select.text(1, run_id).step();
  if (step == SQLITE_ROW) return std::optional<RunRecord>(read_run(select));
  if (step != SQLITE_DONE) return db_->error("reading a run");
  return std::optional<RunRecord>();
}

core::Result<std::vector<RunRecord>> SqliteRunStore::runs(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse select(db_->prepared(kSelectThreadRuns));
  select.text(1, thread_id);
  std::vector<RunRecord> runs;
  int step = 0;
  while ((step = select.step()) == SQLITE_ROW) runs.push_back(read_run(select));
  if (step != SQLITE_DONE) return db_->error("listing runs");
  return runs;
}

core::Result<std::optional<RunRecord>> SqliteRunStore::claim(std::string_view worker, Millis now,
                                                             Millis lease_until) {
  std::lock_guard lock(mutex_);
  return db_->transaction<std::optional<RunRecord>>([&]() -> core::Result<std::optional<RunRecord>> {
    graph::SqliteUse pick(db_->prepared(
        "SELECT r.run_id FROM planfirst_server_runs r WHERE "
        "(r.status = 'running' AND r.lease_until < ?1) OR "
        "(r.status = 'pending' AND NOT EXISTS (SELECT 1 FROM planfirst_server_runs o WHERE "
        "o.thread_id = r.thread_id AND o.position < r.position AND o.status IN ('pending', 'running'))) "
        "ORDER BY r.position LIMIT 1"));
    const int step = pick.integer(1, now).step();
    if (step == SQLITE_DONE) return std::optional<RunRecord>();
    if (step != SQLITE_ROW) return db_->error("claiming a run");
    const std::string run_id = pick.column_text(0);
    graph::SqliteUse take(
        db_->prepared("UPDATE planfirst_server_runs SET status = 'running', worker = ?2, lease_until = ?3, "
                      "attempt = attempt + 1, updated_at = ?4 WHERE run_id = ?1"));
    take.text(1, run_id).text(2, worker).integer(3, lease_until).integer(4, now);
    if (auto ok = db_->done(take, "claiming a run"); !ok) return ok.error();
    graph::SqliteUse select(db_->prepared(kSelectRun));
    if (select.text(1, run_id).step() != SQLITE_ROW) return db_->error("reading a claimed run");
    return std::optional<RunRecord>(read_run(select));
  });
}

core::Result<Lease> SqliteRunStore::renew(std::string_view run_id, std::string_view worker,
                                          Millis lease_until) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse update(
      db_->prepared("UPDATE planfirst_server_runs SET lease_until = ?3 WHERE run_id = ?1 AND worker = ?2 AND "
                    "status = 'running' RETURNING cancel_requested"));
  const int step = update.text(1, run_id).text(2, worker).integer(3, lease_until).step();
  if (step == SQLITE_ROW) return Lease{true, update.column_integer(0) != 0};
  if (step != SQLITE_DONE) return db_->error("renewing a lease");
  return Lease{};
}

core::Result<void> SqliteRunStore::mark_started(std::string_view run_id,
                                                std::string_view start_checkpoint_id) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse update(db_->prepared(
      "UPDATE planfirst_server_runs SET started = 1, start_checkpoint_id = ?2 WHERE run_id = ?1"));
  update.text(1, run_id).text(2, start_checkpoint_id);
  return db_->done(update, "marking a run started");
}

core::Result<bool> SqliteRunStore::finish(std::string_view run_id, std::string_view worker, RunStatus status,
                                          std::string_view result_json, Millis now) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse update(db_->prepared(
      "UPDATE planfirst_server_runs SET status = ?3, result = ?4, updated_at = ?5, lease_until = 0 "
      "WHERE run_id = ?1 AND worker = ?2 AND status = 'running'"));
  update.text(1, run_id).text(2, worker).text(3, to_string(status)).text(4, result_json).integer(5, now);
  if (auto ok = db_->done(update, "finishing a run"); !ok) return ok.error();
  return sqlite3_changes(db_->db.get()) == 1;
}

core::Result<void> SqliteRunStore::release(std::string_view run_id, std::string_view worker) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse update(
      db_->prepared("UPDATE planfirst_server_runs SET status = 'pending', worker = '', lease_until = 0 "
                    "WHERE run_id = ?1 AND worker = ?2 AND status = 'running'"));
  update.text(1, run_id).text(2, worker);
  return db_->done(update, "releasing a run");
}

core::Result<bool> SqliteRunStore::request_cancel(std::string_view run_id, Millis now) {
  std::lock_guard lock(mutex_);
  return db_->transaction<bool>([&]() -> core::Result<bool> {
    graph::SqliteUse flag(
        db_->prepared("UPDATE planfirst_server_runs SET cancel_requested = 1 WHERE run_id = ?1"));
    if (auto ok = db_->done(flag.text(1, run_id), "cancelling a run"); !ok) return ok.error();
    graph::SqliteUse pending(
        db_->prepared("UPDATE planfirst_server_runs SET status = 'interrupted', updated_at = ?2, "
                      "result = '{\"cancelled\":true}' WHERE run_id = ?1 AND status = 'pending'"));
    if (auto ok = db_->done(pending.text(1, run_id).integer(2, now), "cancelling a run"); !ok)
      return ok.error();
    return sqlite3_changes(db_->db.get()) == 1;
  });
}

core::Result<std::size_t> SqliteRunStore::count_runs(RunStatus status) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse count(db_->prepared("SELECT COUNT(*) FROM planfirst_server_runs WHERE status = ?1"));
  if (count.text(1, to_string(status)).step() != SQLITE_ROW) return db_->error("counting runs");
  return static_cast<std::size_t>(count.column_integer(0));
}

core::Result<bool> SqliteRunStore::append_event(std::string_view run_id, std::string_view key,
                                                std::string_view event, std::string_view data_json,
                                                Millis now) {
  std::lock_guard lock(mutex_);
  return db_->transaction<bool>([&]() -> core::Result<bool> {
    graph::SqliteUse insert(
        db_->prepared("INSERT INTO planfirst_server_events (run_id, seq, key, event, data, created_at) "
                      "SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4, ?5 FROM planfirst_server_events "
                      "WHERE run_id = ?1 ON CONFLICT (run_id, key) DO NOTHING"));
    insert.text(1, run_id).text(2, key).text(3, event).text(4, data_json).integer(5, now);
    if (auto ok = db_->done(insert, "appending an event"); !ok) return ok.error();
    return sqlite3_changes(db_->db.get()) == 1;
  });
}

core::Result<std::vector<StoredEvent>> SqliteRunStore::events(std::string_view run_id, std::int64_t after,
                                                              std::size_t limit) {
  std::lock_guard lock(mutex_);
  graph::SqliteUse select(db_->prepared(
      "SELECT seq, event, data, created_at FROM planfirst_server_events WHERE run_id = ?1 AND seq > ?2 "
      "ORDER BY seq LIMIT ?3"));
  select.text(1, run_id).integer(2, after).integer(3, static_cast<std::int64_t>(limit));
  std::vector<StoredEvent> events;
  int step = 0;
  while ((step = select.step()) == SQLITE_ROW)
    events.push_back(
        {select.column_integer(0), select.column_text(1), select.column_text(2), select.column_integer(3)});
  if (step != SQLITE_DONE) return db_->error("reading events");
  return events;
}

}  // namespace planfirst::server
