#include "graph/sqlite_checkpointer.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <utility>

#include "graph/checkpoint_rules.hpp"
#include "graph/sqlite_statement.hpp"

namespace planfirst::graph {
namespace {

// Columns read back into a CheckpointRecord, in this order (thread_id is known to the caller).
constexpr const char* kRecordColumns =
    "c.checkpoint_id, c.parent_id, c.step, c.node, c.last_completed_node, c.next_node, c.status, c.metadata, "
    "c.created_at, c.format_version";

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS planfirst_checkpoints (
  thread_id TEXT NOT NULL, checkpoint_id TEXT NOT NULL, parent_id TEXT NOT NULL, step INTEGER NOT NULL,
  node TEXT NOT NULL, last_completed_node TEXT NOT NULL, next_node TEXT NOT NULL, status TEXT NOT NULL,
  metadata TEXT NOT NULL, created_at INTEGER NOT NULL, format_version INTEGER NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_id)) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS planfirst_checkpoints_step ON planfirst_checkpoints (thread_id, step);
CREATE TABLE IF NOT EXISTS planfirst_heads (
  thread_id TEXT NOT NULL PRIMARY KEY, checkpoint_id TEXT NOT NULL, step INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS planfirst_writes (
  thread_id TEXT NOT NULL, key TEXT NOT NULL, step INTEGER NOT NULL, kind TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (thread_id, key, step)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS planfirst_writes_kind ON planfirst_writes (thread_id, key, kind, step);
)sql";

// Per key: its last replace/snapshot at or before ?2, its chunks after it, then its appends after
// the last of those up to ?2 (at most chunk_every - 1); every bound is one seek in the kind index.
// Keys are enumerated by skipping through the primary key.
constexpr const char* kWritesForState = R"sql(
WITH RECURSIVE keys(key) AS (
  SELECT (SELECT MIN(key) FROM planfirst_writes WHERE thread_id = ?1)
  UNION ALL
  SELECT (SELECT MIN(key) FROM planfirst_writes WHERE thread_id = ?1 AND key > keys.key)
  FROM keys WHERE keys.key IS NOT NULL),
bounds(key, base_step, chunk_step) AS (
  SELECT key,
    MAX(COALESCE((SELECT MAX(step) FROM planfirst_writes
                  WHERE thread_id = ?1 AND key = keys.key AND kind = 'replace' AND step <= ?2), -1),
        COALESCE((SELECT MAX(step) FROM planfirst_writes
                  WHERE thread_id = ?1 AND key = keys.key AND kind = 'snapshot' AND step <= ?2), -1)),
    COALESCE((SELECT MAX(step) FROM planfirst_writes
              WHERE thread_id = ?1 AND key = keys.key AND kind = 'chunk' AND step <= ?2), -1)
  FROM keys WHERE key IS NOT NULL)
SELECT w.step, w.key, w.kind, w.value FROM bounds b JOIN planfirst_writes w
  ON w.thread_id = ?1 AND w.key = b.key AND w.step = b.base_step
UNION ALL
SELECT w.step, w.key, w.kind, w.value FROM bounds b JOIN planfirst_writes w
  ON w.thread_id = ?1 AND w.key = b.key AND w.kind = 'chunk' AND w.step > b.base_step AND w.step <= ?2
UNION ALL
SELECT w.step, w.key, w.kind, w.value FROM bounds b JOIN planfirst_writes w
  ON w.thread_id = ?1 AND w.key = b.key AND w.kind = 'append' AND w.step > MAX(b.base_step, b.chunk_step)
  AND w.step <= ?2
ORDER BY 1, 2
)sql";

core::Result<CheckpointRecord> read_record(const SqliteUse& row, std::string_view thread_id) {
  CheckpointRecord record;
  record.thread_id = std::string(thread_id);
  record.checkpoint_id = row.column_text(0);
  record.format_version = static_cast<int>(row.column_integer(9));
  if (core::Result<void> readable = check_readable(record.format_version, thread_id, record.checkpoint_id);
      !readable) {
    return readable.error();
  }
  record.parent_id = row.column_text(1);
  record.step = row.column_integer(2);
  record.node = row.column_text(3);
  record.last_completed_node = row.column_text(4);
  record.next_node = row.column_text(5);
  const std::string status = row.column_text(6);
  std::optional<CheckpointStatus> parsed = parse_checkpoint_status(status);
  if (!parsed) {
    return core::failed_precondition(
        "checkpoint " + record.checkpoint_id + " has unknown status '" + status + "'",
        "thread " + record.thread_id);
  }
  record.status = *parsed;
  record.metadata_json = row.column_text(7);
  record.created_at = from_unix_nanos(row.column_integer(8));
  return record;
}

}  // namespace

struct SqliteCheckpointer::Database {
  SqliteDatabaseHandle db;
  std::string path;
  SqliteStatementHandle begin, commit, rollback;
  SqliteStatementHandle select_head_id, upsert_head, insert_record, insert_write;
  SqliteStatementHandle select_head, select_record, select_records, select_writes, select_threads;
  SqliteStatementHandle delete_writes_through, delete_records_before, delete_writes, delete_records,
      delete_head;
  SqliteStatementHandle select_bytes;

  core::Error error(int code, std::string_view doing) const {
    core::Error e = sqlite_error(db.get(), code, doing);
    e.where = path;
    return e;
  }

  core::Result<void> exec(const char* sql, std::string_view doing) {
    char* message = nullptr;
    const int code = sqlite3_exec(db.get(), sql, nullptr, nullptr, &message);
    if (code == SQLITE_OK) return core::ok();
    const std::string text = message != nullptr ? message : sqlite3_errstr(code);
    sqlite3_free(message);
    core::Error e = sqlite_error(nullptr, code, doing);
    e.message = std::string(doing) + ": " + text;
    e.where = path;
    return e;
  }

  core::Result<void> prepare(SqliteStatementHandle& handle, std::string_view sql) {
    sqlite3_stmt* statement = nullptr;
    const int code = sqlite3_prepare_v3(db.get(), sql.data(), static_cast<int>(sql.size()),
                                        SQLITE_PREPARE_PERSISTENT, &statement, nullptr);
    if (code != SQLITE_OK) return error(code, "preparing " + std::string(sql.substr(0, 60)));
    handle.reset(statement);
    return core::ok();
  }

  // Runs a statement that returns no rows.
  core::Result<void> run(SqliteUse& use, std::string_view doing) {
    const int code = use.step();
    if (code == SQLITE_DONE || code == SQLITE_ROW) return core::ok();
    return error(code, doing);
  }

  core::Result<void> run_plain(SqliteStatementHandle& statement, std::string_view doing) {
    SqliteUse use(statement.get());
    return run(use, doing);
  }

  core::Result<std::vector<StepWrite>> writes_at(std::string_view thread_id, std::int64_t step) {
    SqliteUse use(select_writes.get());
    use.text(1, thread_id).integer(2, step);
    std::vector<StepWrite> writes;
    int code = SQLITE_ROW;
    while ((code = use.step()) == SQLITE_ROW) {
      StepWrite write;
      write.step = use.column_integer(0);
      write.write.key = use.column_text(1);
      const std::string kind = use.column_text(2);
      std::optional<WriteKind> parsed = parse_write_kind(kind);
      if (!parsed) {
        return core::failed_precondition("write of key '" + write.write.key + "' at step " +
                                             std::to_string(write.step) + " has unknown kind '" + kind + "'",
                                         "thread " + std::string(thread_id));
      }
      write.write.kind = *parsed;
      write.write.value_json = use.column_text(3);
      writes.push_back(std::move(write));
    }
    if (code != SQLITE_DONE) return error(code, "reading writes");
    return writes;
  }

  core::Result<std::vector<CheckpointRecord>> records_newest_first(std::string_view thread_id) {
    SqliteUse use(select_records.get());
    use.text(1, thread_id);
    std::vector<CheckpointRecord> records;
    int code = SQLITE_ROW;
    while ((code = use.step()) == SQLITE_ROW) {
      core::Result<CheckpointRecord> record = read_record(use, thread_id);
      if (!record) return record.error();
      records.push_back(std::move(*record));
    }
    if (code != SQLITE_DONE) return error(code, "reading history");
    return records;
  }

  // BEGIN IMMEDIATE ... COMMIT; rolls back unless committed.
  class Transaction {
   public:
    explicit Transaction(Database& db) : db_(db) {}
    ~Transaction() {
      if (open_) static_cast<void>(db_.run_plain(db_.rollback, "rolling back"));
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    core::Result<void> begin() {
      core::Result<void> begun = db_.run_plain(db_.begin, "starting a write transaction");
      open_ = begun.has_value();
      return begun;
    }
    core::Result<void> commit() {
      core::Result<void> committed = db_.run_plain(db_.commit, "committing");
      if (committed) open_ = false;
      return committed;
    }

   private:
    Database& db_;
    bool open_ = false;
  };
};

core::Result<std::unique_ptr<SqliteCheckpointer>> SqliteCheckpointer::open(
    const std::filesystem::path& path, SqliteCheckpointerOptions options) {
  auto db = std::make_unique<Database>();
  db->path = path.string();
  sqlite3* raw = nullptr;
  const int opened = sqlite3_open_v2(
      db->path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  db->db.reset(raw);
  if (opened != SQLITE_OK) return db->error(opened, "opening the checkpoint database");
  sqlite3_busy_timeout(raw, static_cast<int>(options.busy_timeout.count()));

  // A new file gives the pages of deleted threads back to the file system (delete_thread); an older
  // file, made without it, reuses them for new writes instead.
  if (auto r = db->exec("PRAGMA auto_vacuum=INCREMENTAL", "setting auto_vacuum"); !r) return r.error();
  if (auto r = db->exec("PRAGMA journal_mode=WAL", "enabling WAL"); !r) return r.error();
  if (auto r = db->exec(options.sync_every_commit ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL",
                        "setting synchronous");
      !r) {
    return r.error();
  }
  // Checkpoint the WAL into the file every ~16 MB instead of every 4 MB: a step dirties the same few
  // pages again and again, so a larger WAL means fewer page copies and fewer fsyncs per step.
  if (auto r =
          db->exec("PRAGMA wal_autocheckpoint=4000; PRAGMA journal_size_limit=67108864", "sizing the WAL");
      !r) {
    return r.error();
  }
  if (auto r = db->exec("BEGIN IMMEDIATE", "starting schema setup"); !r) return r.error();
  auto setup = [&]() -> core::Result<void> {
    if (auto r = db->exec("CREATE TABLE IF NOT EXISTS planfirst_schema (component TEXT NOT NULL PRIMARY KEY, "
                          "version INTEGER NOT NULL)",
                          "creating the schema table");
        !r) {
      return r.error();
    }
    SqliteStatementHandle version_query;
    if (auto r = db->prepare(version_query,
                             "SELECT version FROM planfirst_schema WHERE component = 'checkpoints'");
        !r) {
      return r.error();
    }
    SqliteUse use(version_query.get());
    const int code = use.step();
    if (code == SQLITE_ROW) {
      const std::int64_t version = use.column_integer(0);
      if (version > kSchemaVersion) {
        return core::failed_precondition("checkpoint database has schema version " + std::to_string(version) +
                                             ", but this planfirst reads up to version " +
                                             std::to_string(kSchemaVersion) +
                                             ": upgrade planfirst or point --checkpointer elsewhere",
                                         db->path);
      }
    } else if (code == SQLITE_DONE) {
      if (auto r = db->exec("INSERT INTO planfirst_schema (component, version) VALUES ('checkpoints', 1)",
                            "recording the schema version");
          !r) {
        return r.error();
      }
    } else {
      return db->error(code, "reading the schema version");
    }
    return db->exec(kSchema, "creating the checkpoint tables");
  };
  if (core::Result<void> r = setup(); !r) {
    static_cast<void>(db->exec("ROLLBACK", "rolling back schema setup"));
    return r.error();
  }
  if (auto r = db->exec("COMMIT", "committing schema setup"); !r) return r.error();

  const std::string record_columns = kRecordColumns;
  const std::pair<SqliteStatementHandle*, std::string> statements[] = {
      {&db->begin, "BEGIN IMMEDIATE"},
      {&db->commit, "COMMIT"},
      {&db->rollback, "ROLLBACK"},
      {&db->select_head_id, "SELECT checkpoint_id, step FROM planfirst_heads WHERE thread_id = ?1"},
      {&db->upsert_head,
       "INSERT INTO planfirst_heads (thread_id, checkpoint_id, step) VALUES (?1, ?2, ?3) "
       "ON CONFLICT (thread_id) DO UPDATE SET checkpoint_id = excluded.checkpoint_id, step = excluded.step"},
      {&db->insert_record,
       "INSERT INTO planfirst_checkpoints (thread_id, checkpoint_id, parent_id, step, node, "
       "last_completed_node, "
       "next_node, status, metadata, created_at, format_version) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
       "?10, ?11)"},
      {&db->insert_write,
       "INSERT INTO planfirst_writes (thread_id, key, step, kind, value) VALUES (?1, ?2, ?3, ?4, ?5)"},
      {&db->select_head,
       "SELECT " + record_columns +
           " FROM planfirst_heads h JOIN planfirst_checkpoints c ON c.thread_id = h.thread_id "
           "AND c.checkpoint_id = h.checkpoint_id WHERE h.thread_id = ?1"},
      {&db->select_record,
       "SELECT " + record_columns +
           " FROM planfirst_checkpoints c WHERE c.thread_id = ?1 AND c.checkpoint_id = ?2"},
      {&db->select_records, "SELECT " + record_columns +
                                " FROM planfirst_checkpoints c WHERE c.thread_id = ?1 ORDER BY c.step DESC"},
      {&db->select_writes, kWritesForState},
      {&db->select_threads, "SELECT thread_id FROM planfirst_heads ORDER BY thread_id"},
      {&db->delete_writes_through, "DELETE FROM planfirst_writes WHERE thread_id = ?1 AND step <= ?2"},
      {&db->delete_records_before, "DELETE FROM planfirst_checkpoints WHERE thread_id = ?1 AND step < ?2"},
      {&db->delete_writes, "DELETE FROM planfirst_writes WHERE thread_id = ?1"},
      {&db->delete_records, "DELETE FROM planfirst_checkpoints WHERE thread_id = ?1"},
      {&db->delete_head, "DELETE FROM planfirst_heads WHERE thread_id = ?1"},
      {&db->select_bytes,
       "SELECT (SELECT COALESCE(SUM(24 + length(CAST(checkpoint_id AS BLOB)) + length(CAST(parent_id AS "
       "BLOB)) + "
       "length(CAST(node AS BLOB)) + length(CAST(last_completed_node AS BLOB)) + length(CAST(next_node AS "
       "BLOB)) + "
       "length(CAST(status AS BLOB)) + length(CAST(metadata AS BLOB))), 0) FROM planfirst_checkpoints "
       "WHERE thread_id = ?1), (SELECT COALESCE(SUM(8 + length(CAST(key AS BLOB)) + length(CAST(kind AS "
       "BLOB)) + "
       "length(CAST(value AS BLOB))), 0) FROM planfirst_writes WHERE thread_id = ?1)"},
  };
  for (const auto& [handle, sql] : statements) {
    if (auto r = db->prepare(*handle, sql); !r) return r.error();
  }
  return std::unique_ptr<SqliteCheckpointer>(new SqliteCheckpointer(std::move(db)));
}

SqliteCheckpointer::SqliteCheckpointer(std::unique_ptr<Database> db) : db_(std::move(db)) {}

SqliteCheckpointer::~SqliteCheckpointer() = default;

core::Result<void> SqliteCheckpointer::append(const CheckpointRecord& record,
                                              std::string_view expected_head) {
  if (core::Result<void> valid = check_appendable(record, expected_head); !valid) return valid.error();
  std::lock_guard lock(mutex_);
  Database& db = *db_;
  Database::Transaction transaction(db);
  if (auto r = transaction.begin(); !r) return r.error();
  {
    SqliteUse use(db.select_head_id.get());
    use.text(1, record.thread_id);
    const int code = use.step();
    if (code != SQLITE_ROW && code != SQLITE_DONE) return db.error(code, "reading the head");
    const std::string actual = code == SQLITE_ROW ? use.column_text(0) : std::string();
    if (actual != expected_head) return head_conflict(record.thread_id, expected_head, actual);
    if (code == SQLITE_ROW && record.step <= use.column_integer(1)) {
      return step_not_after_head(record, use.column_integer(1));
    }
  }
  {
    const std::string_view status = to_string(record.status);
    SqliteUse use(db.insert_record.get());
    use.text(1, record.thread_id)
        .text(2, record.checkpoint_id)
        .text(3, record.parent_id)
        .integer(4, record.step);
    use.text(5, record.node).text(6, record.last_completed_node).text(7, record.next_node).text(8, status);
    use.text(9, record.metadata_json)
        .integer(10, to_unix_nanos(record.created_at))
        .integer(11, record.format_version);
    const int code = use.step();
    if ((code & 0xff) == SQLITE_CONSTRAINT) {
      return core::invalid_argument(
          "checkpoint id " + record.checkpoint_id + " is already used in this thread",
          "thread " + record.thread_id);
    }
    if (code != SQLITE_DONE) return db.error(code, "storing checkpoint " + record.checkpoint_id);
  }
  for (const KeyWrite& write : record.writes) {
    SqliteUse use(db.insert_write.get());
    use.text(1, record.thread_id).text(2, write.key).integer(3, record.step).text(4, to_string(write.kind));
    use.text(5, write.value_json);
    if (auto r = db.run(use, "storing key '" + write.key + "'"); !r) return r.error();
  }
  {
    SqliteUse use(db.upsert_head.get());
    use.text(1, record.thread_id).text(2, record.checkpoint_id).integer(3, record.step);
    if (auto r = db.run(use, "moving the head"); !r) return r.error();
  }
  return transaction.commit();
}

core::Result<std::optional<CheckpointRecord>> SqliteCheckpointer::head(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  SqliteUse use(db_->select_head.get());
  use.text(1, thread_id);
  const int code = use.step();
  if (code == SQLITE_DONE) return std::optional<CheckpointRecord>();
  if (code != SQLITE_ROW) return db_->error(code, "reading the head");
  core::Result<CheckpointRecord> record = read_record(use, thread_id);
  if (!record) return record.error();
  return std::optional<CheckpointRecord>(std::move(*record));
}

core::Result<CheckpointRecord> SqliteCheckpointer::get(std::string_view thread_id,
                                                       std::string_view checkpoint_id) {
  std::lock_guard lock(mutex_);
  SqliteUse use(db_->select_record.get());
  use.text(1, thread_id).text(2, checkpoint_id);
  const int code = use.step();
  if (code == SQLITE_DONE) return unknown_checkpoint(thread_id, checkpoint_id);
  if (code != SQLITE_ROW) return db_->error(code, "reading a checkpoint");
  return read_record(use, thread_id);
}

core::Result<std::vector<StepWrite>> SqliteCheckpointer::writes_for_state(std::string_view thread_id,
                                                                          std::string_view checkpoint_id) {
  std::lock_guard lock(mutex_);
  std::int64_t step = 0;
  {
    SqliteUse use(db_->select_record.get());
    use.text(1, thread_id).text(2, checkpoint_id);
    const int code = use.step();
    if (code == SQLITE_DONE) return unknown_checkpoint(thread_id, checkpoint_id);
    if (code != SQLITE_ROW) return db_->error(code, "reading a checkpoint");
    core::Result<CheckpointRecord> record = read_record(use, thread_id);
    if (!record) return record.error();
    step = record->step;
  }
  return db_->writes_at(thread_id, step);
}

core::Result<std::vector<CheckpointRecord>> SqliteCheckpointer::history(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  core::Result<std::vector<CheckpointRecord>> records = db_->records_newest_first(thread_id);
  if (records && records->empty()) return unknown_thread(thread_id);
  return records;
}

core::Result<std::vector<std::string>> SqliteCheckpointer::threads() {
  std::lock_guard lock(mutex_);
  SqliteUse use(db_->select_threads.get());
  std::vector<std::string> names;
  int code = SQLITE_ROW;
  while ((code = use.step()) == SQLITE_ROW) names.push_back(use.column_text(0));
  if (code != SQLITE_DONE) return db_->error(code, "listing threads");
  return names;
}

core::Result<PruneReport> SqliteCheckpointer::prune(std::string_view thread_id, const PruneOptions& options) {
  std::lock_guard lock(mutex_);
  Database& db = *db_;
  Database::Transaction transaction(db);
  if (auto r = transaction.begin(); !r) return r.error();
  core::Result<std::vector<CheckpointRecord>> records = db.records_newest_first(thread_id);
  if (!records) return records.error();
  if (records->empty()) return unknown_thread(thread_id);
  core::Result<PrunePlan> plan =
      plan_prune(*records, options, [&](std::int64_t step) { return db.writes_at(thread_id, step); });
  if (!plan) return plan.error();
  if (plan->report.removed == 0) return plan->report;
  {
    SqliteUse use(db.delete_writes_through.get());
    use.text(1, thread_id).integer(2, plan->keep_from);
    if (auto r = db.run(use, "dropping folded writes"); !r) return r.error();
  }
  for (const KeyWrite& write : plan->folded) {
    SqliteUse use(db.insert_write.get());
    use.text(1, thread_id).text(2, write.key).integer(3, plan->keep_from).text(4, to_string(write.kind));
    use.text(5, write.value_json);
    if (auto r = db.run(use, "storing folded key '" + write.key + "'"); !r) return r.error();
  }
  {
    SqliteUse use(db.delete_records_before.get());
    use.text(1, thread_id).integer(2, plan->keep_from);
    if (auto r = db.run(use, "dropping pruned checkpoints"); !r) return r.error();
  }
  if (auto r = transaction.commit(); !r) return r.error();
  return plan->report;
}

core::Result<void> SqliteCheckpointer::delete_thread(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  Database& db = *db_;
  Database::Transaction transaction(db);
  if (auto r = transaction.begin(); !r) return r.error();
  {
    SqliteUse use(db.delete_head.get());
    use.text(1, thread_id);
    if (auto r = db.run(use, "deleting the head"); !r) return r.error();
    if (sqlite3_changes(db.db.get()) == 0) return unknown_thread(thread_id);
  }
  for (SqliteStatementHandle* statement : {&db.delete_writes, &db.delete_records}) {
    SqliteUse use(statement->get());
    use.text(1, thread_id);
    if (auto r = db.run(use, "deleting the thread"); !r) return r.error();
  }
  if (auto r = transaction.commit(); !r) return r.error();
  (void)db.exec("PRAGMA incremental_vacuum", "returning the thread's pages");  // only space; it may wait
  return core::ok();
}

core::Result<std::uint64_t> SqliteCheckpointer::stored_bytes(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  {
    SqliteUse use(db_->select_head_id.get());
    use.text(1, thread_id);
    const int code = use.step();
    if (code == SQLITE_DONE) return unknown_thread(thread_id);
    if (code != SQLITE_ROW) return db_->error(code, "reading the head");
  }
  SqliteUse use(db_->select_bytes.get());
  use.text(1, thread_id);
  const int code = use.step();
  if (code != SQLITE_ROW) return db_->error(code, "counting stored bytes");
  return static_cast<std::uint64_t>(use.column_integer(0) + use.column_integer(1));
}

}  // namespace planfirst::graph
