#include "graph/postgres_checkpointer.hpp"

#include <algorithm>
#include <utility>

#include "core/libpq.hpp"
#include "graph/checkpoint_rules.hpp"

namespace planfirst::graph {
namespace {

constexpr const char* kRecordColumns =
    "c.checkpoint_id, c.parent_id, c.step, c.node, c.last_completed_node, c.next_node, c.status, c.metadata, "
    "c.created_at, c.format_version";

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS planfirst_checkpoints (
  thread_id TEXT COLLATE "C" NOT NULL, checkpoint_id TEXT COLLATE "C" NOT NULL, parent_id TEXT NOT NULL,
  step BIGINT NOT NULL, node TEXT NOT NULL, last_completed_node TEXT NOT NULL, next_node TEXT NOT NULL,
  status TEXT NOT NULL, metadata TEXT NOT NULL, created_at BIGINT NOT NULL, format_version INTEGER NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_id));
CREATE UNIQUE INDEX IF NOT EXISTS planfirst_checkpoints_step ON planfirst_checkpoints (thread_id, step);
CREATE TABLE IF NOT EXISTS planfirst_heads (
  thread_id TEXT COLLATE "C" NOT NULL PRIMARY KEY, checkpoint_id TEXT NOT NULL, step BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS planfirst_writes (
  thread_id TEXT COLLATE "C" NOT NULL, key TEXT COLLATE "C" NOT NULL, step BIGINT NOT NULL, kind TEXT NOT NULL,
  value TEXT NOT NULL, PRIMARY KEY (thread_id, key, step));
CREATE INDEX IF NOT EXISTS planfirst_writes_kind ON planfirst_writes (thread_id, key, kind, step);
)sql";

// As in SqliteCheckpointer: per key, its last replace/snapshot at or before $2, its chunks after
// it, then its appends after the last of those up to $2; keys enumerated by a loose index scan.
constexpr const char* kWritesForState = R"sql(
WITH RECURSIVE keys(key) AS (
  SELECT (SELECT MIN(key) FROM planfirst_writes WHERE thread_id = $1)
  UNION ALL
  SELECT (SELECT MIN(key) FROM planfirst_writes WHERE thread_id = $1 AND key > keys.key)
  FROM keys WHERE keys.key IS NOT NULL),
bounds(key, base_step, chunk_step) AS (
  SELECT key,
    GREATEST(COALESCE((SELECT MAX(step) FROM planfirst_writes
                  WHERE thread_id = $1 AND key = keys.key AND kind = 'replace' AND step <= $2::bigint), -1),
        COALESCE((SELECT MAX(step) FROM planfirst_writes
                  WHERE thread_id = $1 AND key = keys.key AND kind = 'snapshot' AND step <= $2::bigint), -1)),
    COALESCE((SELECT MAX(step) FROM planfirst_writes
              WHERE thread_id = $1 AND key = keys.key AND kind = 'chunk' AND step <= $2::bigint), -1)
  FROM keys WHERE key IS NOT NULL)
SELECT w.step, w.key, w.kind, w.value FROM bounds b JOIN planfirst_writes w
  ON w.thread_id = $1 AND w.key = b.key AND w.step = b.base_step
UNION ALL
SELECT w.step, w.key, w.kind, w.value FROM bounds b JOIN planfirst_writes w
  ON w.thread_id = $1 AND w.key = b.key AND w.kind = 'chunk' AND w.step > b.base_step AND w.step <= $2::bigint
UNION ALL
SELECT w.step, w.key, w.kind, w.value FROM bounds b JOIN planfirst_writes w
  ON w.thread_id = $1 AND w.key = b.key AND w.kind = 'append' AND w.step > GREATEST(b.base_step, b.chunk_step)
  AND w.step <= $2::bigint
ORDER BY 1, 2
)sql";

using ResultHandle = core::PgResultHandle;

// A PostgreSQL text[] literal of `items`.
std::string text_array(const std::vector<std::string_view>& items) {
  std::string out = "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

struct Statement {
  const char* name;
  std::string sql;
};

}  // namespace

struct PostgresCheckpointer::Connection {
  core::LibPq pq;
  core::PgConnHandle conn;
  std::string where;  // the redacted URI

  explicit Connection(core::LibPq api) : pq(api) {}

  core::Error error(const PGresult* result, std::string_view doing) const {
    return core::pg_error(pq, conn.get(), result, doing, where);
  }

  // Runs `sql` (no parameters; may hold several statements).
  core::Result<void> exec(const std::string& sql, std::string_view doing) {
    ResultHandle result = pq.owned(pq.exec(conn.get(), sql.c_str()));
    const ExecStatusType status = pq.result_status(result.get());
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return core::ok();
    return error(result.get(), doing);
  }

  // Runs a prepared statement with text parameters.
  core::Result<ResultHandle> run(const char* name, const std::vector<std::string>& params,
                                 std::string_view doing) {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const std::string& param : params) values.push_back(param.c_str());
    ResultHandle result = pq.owned(pq.exec_prepared(conn.get(), name, static_cast<int>(values.size()),
                                                    values.data(), nullptr, nullptr, 0));
    const ExecStatusType status = pq.result_status(result.get());
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
    return error(result.get(), doing);
  }

  core::Result<CheckpointRecord> read_record(const PGresult* result, int row,
                                             std::string_view thread_id) const {
    auto text = [&](int column) {
      return std::string(pq.getvalue(result, row, column), pq.getlength(result, row, column));
    };
    auto integer = [&](int column) { return std::stoll(pq.getvalue(result, row, column)); };
    CheckpointRecord record;
    record.thread_id = std::string(thread_id);
    record.checkpoint_id = text(0);
    record.format_version = static_cast<int>(integer(9));
    if (auto readable = check_readable(record.format_version, thread_id, record.checkpoint_id); !readable) {
      return readable.error();
    }
    record.parent_id = text(1);
    record.step = integer(2);
    record.node = text(3);
    record.last_completed_node = text(4);
    record.next_node = text(5);
    const std::string status = text(6);
    std::optional<CheckpointStatus> parsed = parse_checkpoint_status(status);
    if (!parsed) {
      return core::failed_precondition(
          "checkpoint " + record.checkpoint_id + " has unknown status '" + status + "'",
          "thread " + record.thread_id);
    }
    record.status = *parsed;
    record.metadata_json = text(7);
    record.created_at = from_unix_nanos(integer(8));
    return record;
  }

  core::Result<std::vector<CheckpointRecord>> records_newest_first(std::string_view thread_id) {
    core::Result<ResultHandle> result = run("select_records", {std::string(thread_id)}, "reading history");
    if (!result) return result.error();
    std::vector<CheckpointRecord> records;
    const int rows = pq.ntuples(result->get());
    records.reserve(static_cast<std::size_t>(rows));
    for (int row = 0; row < rows; ++row) {
      core::Result<CheckpointRecord> record = read_record(result->get(), row, thread_id);
      if (!record) return record.error();
      records.push_back(std::move(*record));
    }
    return records;
  }

  core::Result<std::vector<StepWrite>> writes_at(std::string_view thread_id, std::int64_t step) {
    core::Result<ResultHandle> result =
        run("select_writes", {std::string(thread_id), std::to_string(step)}, "reading writes");
    if (!result) return result.error();
    const PGresult* rows = result->get();
    std::vector<StepWrite> writes;
    writes.reserve(static_cast<std::size_t>(pq.ntuples(rows)));
    for (int row = 0; row < pq.ntuples(rows); ++row) {
      StepWrite write;
      write.step = std::stoll(pq.getvalue(rows, row, 0));
      write.write.key.assign(pq.getvalue(rows, row, 1), pq.getlength(rows, row, 1));
      const std::string_view kind(pq.getvalue(rows, row, 2), pq.getlength(rows, row, 2));
      std::optional<WriteKind> parsed = parse_write_kind(kind);
      if (!parsed) {
        return core::failed_precondition("write of key '" + write.write.key + "' at step " +
                                             std::to_string(write.step) + " has unknown kind '" +
                                             std::string(kind) + "'",
                                         "thread " + std::string(thread_id));
      }
      write.write.kind = *parsed;
      write.write.value_json.assign(pq.getvalue(rows, row, 3), pq.getlength(rows, row, 3));
      writes.push_back(std::move(write));
    }
    return writes;
  }

  core::Result<void> insert_writes(std::string_view thread_id, std::int64_t step,
                                   const std::vector<KeyWrite>& writes) {
    if (writes.empty()) return core::ok();
    std::vector<std::string_view> keys, kinds, values;
    for (const KeyWrite& write : writes) {
      keys.push_back(write.key);
      kinds.push_back(to_string(write.kind));
      values.push_back(write.value_json);
    }
    core::Result<ResultHandle> inserted = run("insert_writes",
                                              {std::string(thread_id), std::to_string(step), text_array(keys),
                                               text_array(kinds), text_array(values)},
                                              "storing writes");
    if (!inserted) return inserted.error();
    return core::ok();
  }

  // BEGIN ... COMMIT; rolls back unless committed.
  class Transaction {
   public:
    explicit Transaction(Connection& connection) : connection_(connection) {}
    ~Transaction() {
      if (open_) static_cast<void>(connection_.exec("ROLLBACK", "rolling back"));
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    core::Result<void> begin() {
      core::Result<void> begun = connection_.exec("BEGIN", "starting a transaction");
      open_ = begun.has_value();
      return begun;
    }
    core::Result<void> commit() {
      open_ = false;
      return connection_.exec("COMMIT", "committing");
    }

   private:
    Connection& connection_;
    bool open_ = false;
  };
};

core::Result<std::unique_ptr<PostgresCheckpointer>> PostgresCheckpointer::open(const std::string& uri) {
  core::Result<core::LibPq> pq = core::LibPq::load();
  if (!pq) return pq.error();
  auto connection = std::make_unique<Connection>(*pq);
  connection->where = core::redacted_uri(uri);
  core::Result<core::PgConnHandle> conn = core::pg_connect(connection->pq, uri, connection->where);
  if (!conn) return conn.error();
  connection->conn = std::move(*conn);

  Connection& c = *connection;
  {
    Connection::Transaction transaction(c);
    if (auto r = transaction.begin(); !r) return r.error();
    // One process at a time creates or checks the schema.
    if (auto r = c.exec("SELECT pg_advisory_xact_lock(7261736) ", "locking schema setup"); !r)
      return r.error();
    if (auto r =
            c.exec("CREATE TABLE IF NOT EXISTS planfirst_schema (component TEXT PRIMARY KEY, version INTEGER "
                   "NOT NULL)",
                   "creating the schema table");
        !r) {
      return r.error();
    }
    ResultHandle version = c.pq.owned(
        c.pq.exec(c.conn.get(), "SELECT version FROM planfirst_schema WHERE component = 'checkpoints'"));
    if (c.pq.result_status(version.get()) != PGRES_TUPLES_OK)
      return c.error(version.get(), "reading the schema version");
    if (c.pq.ntuples(version.get()) == 1) {
      const long long stored = std::stoll(c.pq.getvalue(version.get(), 0, 0));
      if (stored > kSchemaVersion) {
        return core::failed_precondition("checkpoint database has schema version " + std::to_string(stored) +
                                             ", but this planfirst reads up to version " +
                                             std::to_string(kSchemaVersion) +
                                             ": upgrade planfirst or point --checkpointer elsewhere",
                                         c.where);
      }
    } else if (auto r = c.exec("INSERT INTO planfirst_schema (component, version) VALUES ('checkpoints', 1)",
                               "recording the schema version");
               !r) {
      return r.error();
    }
    if (auto r = c.exec(kSchema, "creating the checkpoint tables"); !r) return r.error();
    if (auto r = transaction.commit(); !r) return r.error();
  }

  const std::string columns = kRecordColumns;
  const Statement statements[] = {
      {"insert_head",
       "INSERT INTO planfirst_heads (thread_id, checkpoint_id, step) VALUES ($1, $2, $3) "
       "ON CONFLICT (thread_id) DO NOTHING"},
      {"advance_head",
       "UPDATE planfirst_heads SET checkpoint_id = $2, step = $3 WHERE thread_id = $1 AND checkpoint_id = $4 "
       "AND step < $3"},
      {"select_head_id", "SELECT checkpoint_id, step FROM planfirst_heads WHERE thread_id = $1"},
      {"lock_head", "SELECT checkpoint_id FROM planfirst_heads WHERE thread_id = $1 FOR UPDATE"},
      {"insert_record",
       "INSERT INTO planfirst_checkpoints (thread_id, checkpoint_id, parent_id, step, node, "
       "last_completed_node, "
       "next_node, status, metadata, created_at, format_version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
       "$10, $11)"},
      {"insert_writes",
       "INSERT INTO planfirst_writes (thread_id, key, step, kind, value) SELECT $1::text, k, $2::bigint, d, "
       "v "
       "FROM unnest($3::text[], $4::text[], $5::text[]) AS t(k, d, v)"},
      {"select_head", "SELECT " + columns +
                          " FROM planfirst_heads h JOIN planfirst_checkpoints c ON c.thread_id = h.thread_id "
                          "AND c.checkpoint_id = h.checkpoint_id WHERE h.thread_id = $1"},
      {"select_record",
       "SELECT " + columns + " FROM planfirst_checkpoints c WHERE c.thread_id = $1 AND c.checkpoint_id = $2"},
      {"select_records",
       "SELECT " + columns + " FROM planfirst_checkpoints c WHERE c.thread_id = $1 ORDER BY c.step DESC"},
      {"select_writes", kWritesForState},
      {"select_threads", "SELECT thread_id FROM planfirst_heads ORDER BY thread_id"},
      {"delete_writes_through", "DELETE FROM planfirst_writes WHERE thread_id = $1 AND step <= $2"},
      {"delete_records_before", "DELETE FROM planfirst_checkpoints WHERE thread_id = $1 AND step < $2"},
      {"delete_head", "DELETE FROM planfirst_heads WHERE thread_id = $1"},
      {"delete_writes", "DELETE FROM planfirst_writes WHERE thread_id = $1"},
      {"delete_records", "DELETE FROM planfirst_checkpoints WHERE thread_id = $1"},
      {"select_bytes",
       "SELECT (SELECT COALESCE(SUM(24 + octet_length(checkpoint_id) + octet_length(parent_id) + "
       "octet_length(node) + "
       "octet_length(last_completed_node) + octet_length(next_node) + octet_length(status) + "
       "octet_length(metadata)), "
       "0) FROM planfirst_checkpoints WHERE thread_id = $1) + (SELECT COALESCE(SUM(8 + octet_length(key) + "
       "octet_length(kind) + octet_length(value)), 0) FROM planfirst_writes WHERE thread_id = $1)"},
  };
  for (const Statement& statement : statements) {
    ResultHandle prepared =
        c.pq.owned(c.pq.prepare(c.conn.get(), statement.name, statement.sql.c_str(), 0, nullptr));
    if (c.pq.result_status(prepared.get()) != PGRES_COMMAND_OK) {
      return c.error(prepared.get(), std::string("preparing ") + statement.name);
    }
  }
  return std::unique_ptr<PostgresCheckpointer>(new PostgresCheckpointer(std::move(connection)));
}

PostgresCheckpointer::PostgresCheckpointer(std::unique_ptr<Connection> connection)
    : connection_(std::move(connection)) {}

PostgresCheckpointer::~PostgresCheckpointer() = default;

core::Result<void> PostgresCheckpointer::append(const CheckpointRecord& record,
                                                std::string_view expected_head) {
  if (core::Result<void> valid = check_appendable(record, expected_head); !valid) return valid.error();
  std::lock_guard lock(mutex_);
  Connection& c = *connection_;
  Connection::Transaction transaction(c);
  if (auto r = transaction.begin(); !r) return r.error();
  const std::string step = std::to_string(record.step);
  // The head row is locked by the statement that moves it, until commit: racing appenders queue on
  // it and re-check the condition against the winner's committed head.
  core::Result<ResultHandle> moved =
      expected_head.empty()
          ? c.run("insert_head", {record.thread_id, record.checkpoint_id, step}, "creating the head")
          : c.run("advance_head", {record.thread_id, record.checkpoint_id, step, std::string(expected_head)},
                  "moving the head");
  if (!moved) return moved.error();
  if (std::string_view(c.pq.cmd_tuples(moved->get())) != "1") {
    core::Result<ResultHandle> current = c.run("select_head_id", {record.thread_id}, "reading the head");
    if (!current) return current.error();
    const bool exists = c.pq.ntuples(current->get()) == 1;
    const std::string actual = exists ? c.pq.getvalue(current->get(), 0, 0) : "";
    if (actual != expected_head) return head_conflict(record.thread_id, expected_head, actual);
    return step_not_after_head(record, std::stoll(c.pq.getvalue(current->get(), 0, 1)));
  }
  core::Result<ResultHandle> inserted =
      c.run("insert_record",
            {record.thread_id, record.checkpoint_id, record.parent_id, step, record.node,
             record.last_completed_node, record.next_node, std::string(to_string(record.status)),
             record.metadata_json, std::to_string(to_unix_nanos(record.created_at)),
             std::to_string(record.format_version)},
            "storing checkpoint " + record.checkpoint_id);
  if (!inserted) {
    if (inserted.error().code == core::ErrorCode::kInvalidArgument) {
      return core::invalid_argument(
          "checkpoint id " + record.checkpoint_id + " is already used in this thread",
          "thread " + record.thread_id);
    }
    return inserted.error();
  }
  if (auto r = c.insert_writes(record.thread_id, record.step, record.writes); !r) return r.error();
  return transaction.commit();
}

core::Result<std::optional<CheckpointRecord>> PostgresCheckpointer::head(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  core::Result<ResultHandle> result =
      connection_->run("select_head", {std::string(thread_id)}, "reading the head");
  if (!result) return result.error();
  if (connection_->pq.ntuples(result->get()) == 0) return std::optional<CheckpointRecord>();
  core::Result<CheckpointRecord> record = connection_->read_record(result->get(), 0, thread_id);
  if (!record) return record.error();
  return std::optional<CheckpointRecord>(std::move(*record));
}

core::Result<CheckpointRecord> PostgresCheckpointer::get(std::string_view thread_id,
                                                         std::string_view checkpoint_id) {
  std::lock_guard lock(mutex_);
  core::Result<ResultHandle> result = connection_->run(
      "select_record", {std::string(thread_id), std::string(checkpoint_id)}, "reading a checkpoint");
  if (!result) return result.error();
  if (connection_->pq.ntuples(result->get()) == 0) return unknown_checkpoint(thread_id, checkpoint_id);
  return connection_->read_record(result->get(), 0, thread_id);
}

core::Result<std::vector<StepWrite>> PostgresCheckpointer::writes_for_state(std::string_view thread_id,
                                                                            std::string_view checkpoint_id) {
  std::lock_guard lock(mutex_);
  core::Result<ResultHandle> result = connection_->run(
      "select_record", {std::string(thread_id), std::string(checkpoint_id)}, "reading a checkpoint");
  if (!result) return result.error();
  if (connection_->pq.ntuples(result->get()) == 0) return unknown_checkpoint(thread_id, checkpoint_id);
  core::Result<CheckpointRecord> record = connection_->read_record(result->get(), 0, thread_id);
  if (!record) return record.error();
  return connection_->writes_at(thread_id, record->step);
}

core::Result<std::vector<CheckpointRecord>> PostgresCheckpointer::history(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  core::Result<std::vector<CheckpointRecord>> records = connection_->records_newest_first(thread_id);
  if (records && records->empty()) return unknown_thread(thread_id);
  return records;
}

core::Result<std::vector<std::string>> PostgresCheckpointer::threads() {
  std::lock_guard lock(mutex_);
  core::Result<ResultHandle> result = connection_->run("select_threads", {}, "listing threads");
  if (!result) return result.error();
  std::vector<std::string> names;
  for (int row = 0; row < connection_->pq.ntuples(result->get()); ++row)
    names.emplace_back(connection_->pq.getvalue(result->get(), row, 0));
  return names;
}

core::Result<PruneReport> PostgresCheckpointer::prune(std::string_view thread_id,
                                                      const PruneOptions& options) {
  std::lock_guard lock(mutex_);
  Connection& c = *connection_;
  const std::string thread(thread_id);
  Connection::Transaction transaction(c);
  if (auto r = transaction.begin(); !r) return r.error();
  core::Result<ResultHandle> locked = c.run("lock_head", {thread}, "locking the head");  // appends wait
  if (!locked) return locked.error();
  if (c.pq.ntuples(locked->get()) == 0) return unknown_thread(thread_id);
  core::Result<std::vector<CheckpointRecord>> records = c.records_newest_first(thread_id);
  if (!records) return records.error();
  core::Result<PrunePlan> plan =
      plan_prune(*records, options, [&](std::int64_t step) { return c.writes_at(thread_id, step); });
  if (!plan) return plan.error();
  if (plan->report.removed == 0) return plan->report;
  const std::string step = std::to_string(plan->keep_from);
  if (auto r = c.run("delete_writes_through", {thread, step}, "dropping folded writes"); !r) return r.error();
  if (auto r = c.insert_writes(thread_id, plan->keep_from, plan->folded); !r) return r.error();
  if (auto r = c.run("delete_records_before", {thread, step}, "dropping pruned checkpoints"); !r)
    return r.error();
  if (auto r = transaction.commit(); !r) return r.error();
  return plan->report;
}

core::Result<void> PostgresCheckpointer::delete_thread(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  Connection& c = *connection_;
  const std::string thread(thread_id);
  Connection::Transaction transaction(c);
  if (auto r = transaction.begin(); !r) return r.error();
  core::Result<ResultHandle> deleted = c.run("delete_head", {thread}, "deleting the head");
  if (!deleted) return deleted.error();
  if (std::string_view(c.pq.cmd_tuples(deleted->get())) == "0") return unknown_thread(thread_id);
  if (auto r = c.run("delete_writes", {thread}, "deleting writes"); !r) return r.error();
  if (auto r = c.run("delete_records", {thread}, "deleting checkpoints"); !r) return r.error();
  return transaction.commit();
}

core::Result<std::uint64_t> PostgresCheckpointer::stored_bytes(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  const std::string thread(thread_id);
  core::Result<ResultHandle> head = connection_->run("select_head_id", {thread}, "reading the head");
  if (!head) return head.error();
  if (connection_->pq.ntuples(head->get()) == 0) return unknown_thread(thread_id);
  core::Result<ResultHandle> result = connection_->run("select_bytes", {thread}, "counting stored bytes");
  if (!result) return result.error();
  return static_cast<std::uint64_t>(std::stoull(connection_->pq.getvalue(result->get(), 0, 0)));
}

}  // namespace planfirst::graph
