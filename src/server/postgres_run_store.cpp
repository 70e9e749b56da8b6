#include "server/postgres_run_store.hpp"

#include <utility>

#include "core/libpq.hpp"

namespace planfirst::server {
namespace {

constexpr const char* kSchema = R"sql(
SELECT pg_advisory_xact_lock(7261737);
CREATE TABLE IF NOT EXISTS planfirst_server_threads (
  thread_id TEXT COLLATE "C" PRIMARY KEY, assistant_id TEXT NOT NULL, metadata TEXT NOT NULL,
  created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS planfirst_server_runs (
  position BIGSERIAL PRIMARY KEY, run_id TEXT COLLATE "C" NOT NULL UNIQUE, thread_id TEXT COLLATE "C" NOT NULL,
  assistant_id TEXT NOT NULL, status TEXT NOT NULL, multitask_strategy TEXT NOT NULL, input TEXT NOT NULL,
  resume_checkpoint_id TEXT NOT NULL, resume_answer TEXT NOT NULL, stream_modes TEXT NOT NULL,
  start_checkpoint_id TEXT NOT NULL, started BOOLEAN NOT NULL, result TEXT NOT NULL, worker TEXT NOT NULL,
  lease_until BIGINT NOT NULL, attempt INTEGER NOT NULL, cancel_requested BOOLEAN NOT NULL,
  created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS planfirst_server_runs_thread ON planfirst_server_runs (thread_id, status);
CREATE INDEX IF NOT EXISTS planfirst_server_runs_status ON planfirst_server_runs (status, position);
CREATE TABLE IF NOT EXISTS planfirst_server_events (
  run_id TEXT COLLATE "C" NOT NULL, seq BIGINT NOT NULL, key TEXT COLLATE "C" NOT NULL, event TEXT NOT NULL,
  data TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (run_id, seq));
CREATE UNIQUE INDEX IF NOT EXISTS planfirst_server_events_key ON planfirst_server_events (run_id, key);
)sql";

constexpr const char* kRunColumns =
    "run_id, thread_id, assistant_id, status, multitask_strategy, input, resume_checkpoint_id, "
    "resume_answer, "
    "stream_modes, start_checkpoint_id, started::int, result, worker, lease_until, attempt, "
    "cancel_requested::int, "
    "created_at, updated_at";

using Params = std::vector<std::string>;

}  // namespace

struct PostgresRunStore::Connection {
  core::LibPq pq;
  core::PgConnHandle conn;
  std::string where;

  explicit Connection(core::LibPq api) : pq(api) {}

  core::Error error(const PGresult* result, std::string_view doing) const {
    return core::pg_error(pq, conn.get(), result, doing, where);
  }

  core::Result<core::PgResultHandle> run(const std::string& sql, const Params& params,
                                         std::string_view doing) {
    if (pq.status(conn.get()) != CONNECTION_OK) pq.reset(conn.get());
    std::vector<const char*> values;
    for (const std::string& param : params) values.push_back(param.c_str());
    core::PgResultHandle result =
        pq.owned(pq.exec_params(conn.get(), sql.c_str(), static_cast<int>(values.size()), nullptr,
                                values.data(), nullptr, nullptr, 0));
    const ExecStatusType status = pq.result_status(result.get());
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
    return error(result.get(), doing);
  }

  std::string text(const PGresult* result, int row, int column) const {
    return std::string(pq.getvalue(result, row, column),
                       static_cast<std::size_t>(pq.getlength(result, row, column)));
  }
  std::int64_t integer(const PGresult* result, int row, int column) const {
    return std::stoll(pq.getvalue(result, row, column));
  }

  RunRecord read_run(const PGresult* result, int row) const {
    RunRecord run;
    run.run_id = text(result, row, 0);
    run.thread_id = text(result, row, 1);
    run.assistant_id = text(result, row, 2);
    run.status = parse_run_status(text(result, row, 3)).value_or(RunStatus::kError);
    run.multitask_strategy = text(result, row, 4);
    run.input_json = text(result, row, 5);
    run.resume_checkpoint_id = text(result, row, 6);
    run.resume_answer = text(result, row, 7);
    run.stream_modes = text(result, row, 8);
    run.start_checkpoint_id = text(result, row, 9);
    run.started = integer(result, row, 10) != 0;
    run.result_json = text(result, row, 11);
    run.worker = text(result, row, 12);
    run.lease_until = integer(result, row, 13);
    run.attempt = static_cast<int>(integer(result, row, 14));
    run.cancel_requested = integer(result, row, 15) != 0;
    run.created_at = integer(result, row, 16);
    run.updated_at = integer(result, row, 17);
    return run;
  }

  ThreadRecord read_thread(const PGresult* result, int row) const {
    return ThreadRecord{text(result, row, 0), text(result, row, 1), text(result, row, 2),
                        integer(result, row, 3), integer(result, row, 4)};
  }

  // Runs `body` between BEGIN and COMMIT (ROLLBACK when it fails).
  template <typename T, typename Body>
  core::Result<T> transaction(Body body) {
    if (auto begun = run("BEGIN", {}, "starting a transaction"); !begun) return begun.error();
    core::Result<T> result = body();
    if (!result) {
      (void)run("ROLLBACK", {}, "rolling back");
      return result;
    }
    if (auto committed = run("COMMIT", {}, "committing"); !committed) return committed.error();
    return result;
  }
};

PostgresRunStore::PostgresRunStore(std::unique_ptr<Connection> connection)
    : connection_(std::move(connection)) {}
PostgresRunStore::~PostgresRunStore() = default;

core::Result<std::unique_ptr<PostgresRunStore>> PostgresRunStore::open(const std::string& uri) {
  core::Result<core::LibPq> pq = core::LibPq::load();
  if (!pq) return pq.error();
  auto connection = std::make_unique<Connection>(*pq);
  connection->where = core::redacted_uri(uri);
  core::Result<core::PgConnHandle> conn = core::pg_connect(connection->pq, uri, connection->where);
  if (!conn) return conn.error();
  connection->conn = std::move(*conn);
  // Several statements in one transaction (PQexec runs a multi-statement string as one).
  Connection& c = *connection;
  core::PgResultHandle created =
      c.pq.owned(c.pq.exec(c.conn.get(), (std::string("BEGIN;") + kSchema + "COMMIT;").c_str()));
  if (c.pq.result_status(created.get()) != PGRES_COMMAND_OK &&
      c.pq.result_status(created.get()) != PGRES_TUPLES_OK)
    return c.error(created.get(), "creating the run store's tables");
  return std::unique_ptr<PostgresRunStore>(new PostgresRunStore(std::move(connection)));
}

core::Result<void> PostgresRunStore::create_thread(const ThreadRecord& thread) {
  std::lock_guard lock(mutex_);
  auto inserted = connection_->run(
      "INSERT INTO planfirst_server_threads VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
      {thread.thread_id, thread.assistant_id, thread.metadata_json, std::to_string(thread.created_at),
       std::to_string(thread.updated_at)},
      "creating a thread");
  if (!inserted) return inserted.error();
  if (std::string(connection_->pq.cmd_tuples(inserted->get())) != "1")
    return core::Error{core::ErrorCode::kConflict, "thread " + thread.thread_id + " exists", "thread_id"};
  return core::ok();
}

core::Result<std::optional<ThreadRecord>> PostgresRunStore::thread(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  auto selected = connection_->run("SELECT * FROM planfirst_server_threads WHERE thread_id = $1",
                                   {std::string(thread_id)}, "reading a thread");
  if (!selected) return selected.error();
  if (connection_->pq.ntuples(selected->get()) == 0) return std::optional<ThreadRecord>();
  return std::optional<ThreadRecord>(connection_->read_thread(selected->get(), 0));
}

core::Result<std::vector<ThreadRecord>> PostgresRunStore::threads(std::size_t limit, std::size_t offset) {
  std::lock_guard lock(mutex_);
  auto selected = connection_->run(
      "SELECT * FROM planfirst_server_threads ORDER BY updated_at DESC, thread_id LIMIT $1 OFFSET $2",
      {std::to_string(limit), std::to_string(offset)}, "listing threads");
  if (!selected) return selected.error();
  std::vector<ThreadRecord> threads;
  for (int row = 0; row < connection_->pq.ntuples(selected->get()); ++row)
    threads.push_back(connection_->read_thread(selected->get(), row));
  return threads;
}

core::Result<void> PostgresRunStore::delete_thread(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  const Params id{std::string(thread_id)};
  return connection_->transaction<void>([&]() -> core::Result<void> {
    for (const char* sql : {"DELETE FROM planfirst_server_events WHERE run_id IN (SELECT run_id FROM "
                            "planfirst_server_runs WHERE thread_id = $1)",
                            "DELETE FROM planfirst_server_runs WHERE thread_id = $1",
                            "DELETE FROM planfirst_server_threads WHERE thread_id = $1"}) {
      if (auto done = connection_->run(sql, id, "deleting a thread"); !done) return done.error();
    }
    return core::ok();
  });
}

core::Result<void> PostgresRunStore::create_run(const RunRecord& run) {
  std::lock_guard lock(mutex_);
  Connection& c = *connection_;
  return c.transaction<void>([&]() -> core::Result<void> {
    auto thread = c.run("SELECT assistant_id FROM planfirst_server_threads WHERE thread_id = $1 FOR UPDATE",
                        {run.thread_id}, "reading a thread");
    if (!thread) return thread.error();
    if (c.pq.ntuples(thread->get()) == 0) return core::not_found("no thread " + run.thread_id, "thread_id");
    const std::string bound = c.text(thread->get(), 0, 0);
    if (!bound.empty() && bound != run.assistant_id) {
      return core::invalid_argument(
          "thread " + run.thread_id + " runs assistant " + bound + ", not " + run.assistant_id,
          "assistant_id");
    }
    auto active = c.run(
        "SELECT run_id FROM planfirst_server_runs WHERE thread_id = $1 AND status IN ('pending', 'running') "
        "ORDER BY position LIMIT 1",
        {run.thread_id}, "reading active runs");
    if (!active) return active.error();
    if (c.pq.ntuples(active->get()) == 1 && run.multitask_strategy == "reject") {
      return core::Error{core::ErrorCode::kConflict,
                         "thread " + run.thread_id + " already has run " + c.text(active->get(), 0, 0) +
                             " in progress (multitask_strategy 'enqueue' queues behind it)",
                         "multitask_strategy"};
    }
    auto inserted = c.run(
        "INSERT INTO planfirst_server_runs (run_id, thread_id, assistant_id, status, multitask_strategy, "
        "input, "
        "resume_checkpoint_id, resume_answer, stream_modes, start_checkpoint_id, started, result, worker, "
        "lease_until, attempt, cancel_requested, created_at, updated_at) VALUES ($1, $2, $3, 'pending', $4, "
        "$5, "
        "$6, $7, $8, '', false, '{}', '', 0, 0, false, $9, $9)",
        {run.run_id, run.thread_id, run.assistant_id, run.multitask_strategy, run.input_json,
         run.resume_checkpoint_id, run.resume_answer, run.stream_modes, std::to_string(run.created_at)},
        "creating a run");
    if (!inserted) return inserted.error();
    auto bind =
        c.run("UPDATE planfirst_server_threads SET assistant_id = $2, updated_at = $3 WHERE thread_id = $1",
              {run.thread_id, run.assistant_id, std::to_string(run.created_at)}, "binding the thread");
    if (!bind) return bind.error();
    return core::ok();
  });
}

core::Result<std::optional<RunRecord>> PostgresRunStore::run(std::string_view run_id) {
  std::lock_guard lock(mutex_);
  auto selected =
      connection_->run(std::string("SELECT ") + kRunColumns + " FROM planfirst_server_runs WHERE run_id = $1",
                       {std::string(run_id)}, "reading a run");
  if (!selected) return selected.error();
  if (connection_->pq.ntuples(selected->get()) == 0) return std::optional<RunRecord>();
  return std::optional<RunRecord>(connection_->read_run(selected->get(), 0));
}

core::Result<std::vector<RunRecord>> PostgresRunStore::runs(std::string_view thread_id) {
  std::lock_guard lock(mutex_);
  auto selected =
      connection_->run(std::string("SELECT ") + kRunColumns +
                           " FROM planfirst_server_runs WHERE thread_id = $1 ORDER BY position DESC",
                       {std::string(thread_id)}, "listing runs");
  if (!selected) return selected.error();
  std::vector<RunRecord> runs;
  for (int row = 0; row < connection_->pq.ntuples(selected->get()); ++row)
    runs.push_back(connection_->read_run(selected->get(), row));
  return runs;
}

core::Result<std::optional<RunRecord>> PostgresRunStore::claim(std::string_view worker, Millis now,
                                                               Millis lease_until) {
  std::lock_guard lock(mutex_);
  auto claimed = connection_->run(
      std::string(
          "UPDATE planfirst_server_runs SET status = 'running', worker = $1, lease_until = $3, "
          "attempt = attempt + 1, updated_at = $2 WHERE run_id = (SELECT r.run_id FROM planfirst_server_runs "
          "r "
          "WHERE (r.status = 'running' AND r.lease_until < $2) OR (r.status = 'pending' AND NOT EXISTS "
          "(SELECT 1 FROM planfirst_server_runs o WHERE o.thread_id = r.thread_id AND o.position < "
          "r.position "
          "AND o.status IN ('pending', 'running'))) ORDER BY r.position LIMIT 1 FOR UPDATE SKIP LOCKED) "
          "RETURNING ") +
          kRunColumns,
      {std::string(worker), std::to_string(now), std::to_string(lease_until)}, "claiming a run");
  if (!claimed) return claimed.error();
  if (connection_->pq.ntuples(claimed->get()) == 0) return std::optional<RunRecord>();
  return std::optional<RunRecord>(connection_->read_run(claimed->get(), 0));
}

core::Result<Lease> PostgresRunStore::renew(std::string_view run_id, std::string_view worker,
                                            Millis lease_until) {
  std::lock_guard lock(mutex_);
  auto updated = connection_->run(
      "UPDATE planfirst_server_runs SET lease_until = $3 WHERE run_id = $1 AND worker = $2 AND status = "
      "'running' RETURNING cancel_requested::int",
      {std::string(run_id), std::string(worker), std::to_string(lease_until)}, "renewing a lease");
  if (!updated) return updated.error();
  if (connection_->pq.ntuples(updated->get()) == 0) return Lease{};
  return Lease{true, connection_->integer(updated->get(), 0, 0) != 0};
}

core::Result<void> PostgresRunStore::mark_started(std::string_view run_id,
                                                  std::string_view start_checkpoint_id) {
  std::lock_guard lock(mutex_);
  auto updated = connection_->run(
      "UPDATE planfirst_server_runs SET started = true, start_checkpoint_id = $2 WHERE run_id = $1",
      {std::string(run_id), std::string(start_checkpoint_id)}, "marking a run started");
  if (!updated) return updated.error();
  return core::ok();
}

core::Result<bool> PostgresRunStore::finish(std::string_view run_id, std::string_view worker,
                                            RunStatus status, std::string_view result_json, Millis now) {
  std::lock_guard lock(mutex_);
  auto updated = connection_->run(
      "UPDATE planfirst_server_runs SET status = $3, result = $4, updated_at = $5, lease_until = 0 WHERE "
      "run_id = $1 "
      "AND worker = $2 AND status = 'running'",
      {std::string(run_id), std::string(worker), std::string(to_string(status)), std::string(result_json),
       std::to_string(now)},
      "finishing a run");
  if (!updated) return updated.error();
  return std::string(connection_->pq.cmd_tuples(updated->get())) == "1";
}

core::Result<void> PostgresRunStore::release(std::string_view run_id, std::string_view worker) {
  std::lock_guard lock(mutex_);
  auto updated = connection_->run(
      "UPDATE planfirst_server_runs SET status = 'pending', worker = '', lease_until = 0 WHERE run_id = $1 "
      "AND "
      "worker = $2 AND status = 'running'",
      {std::string(run_id), std::string(worker)}, "releasing a run");
  if (!updated) return updated.error();
  return core::ok();
}

core::Result<bool> PostgresRunStore::request_cancel(std::string_view run_id, Millis now) {
  std::lock_guard lock(mutex_);
  Connection& c = *connection_;
  return c.transaction<bool>([&]() -> core::Result<bool> {
    const Params id{std::string(run_id)};
    if (auto flagged = c.run("UPDATE planfirst_server_runs SET cancel_requested = true WHERE run_id = $1", id,
                             "cancelling a run");
        !flagged) {
      return flagged.error();
    }
    auto dropped = c.run(
        "UPDATE planfirst_server_runs SET status = 'interrupted', updated_at = $2, result = "
        "'{\"cancelled\":true}' "
        "WHERE run_id = $1 AND status = 'pending'",
        {std::string(run_id), std::to_string(now)}, "cancelling a run");
    if (!dropped) return dropped.error();
    return std::string(c.pq.cmd_tuples(dropped->get())) == "1";
  });
}

core::Result<std::size_t> PostgresRunStore::count_runs(RunStatus status) {
  std::lock_guard lock(mutex_);
  auto counted = connection_->run("SELECT COUNT(*) FROM planfirst_server_runs WHERE status = $1",
                                  {std::string(to_string(status))}, "counting runs");
  if (!counted) return counted.error();
  return static_cast<std::size_t>(connection_->integer(counted->get(), 0, 0));
}

core::Result<bool> PostgresRunStore::append_event(std::string_view run_id, std::string_view key,
                                                  std::string_view event, std::string_view data_json,
                                                  Millis now) {
  std::lock_guard lock(mutex_);
  Connection& c = *connection_;
  return c.transaction<bool>([&]() -> core::Result<bool> {
    const std::string id(run_id);
    if (auto locked = c.run("SELECT pg_advisory_xact_lock(hashtext($1))", {id}, "locking a run's log");
        !locked)
      return locked.error();
    auto inserted = c.run(
        "INSERT INTO planfirst_server_events (run_id, seq, key, event, data, created_at) SELECT $1, "
        "COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5 FROM planfirst_server_events WHERE run_id = $1 "
        "ON CONFLICT (run_id, key) DO NOTHING",
        {id, std::string(key), std::string(event), std::string(data_json), std::to_string(now)},
        "appending an event");
    if (!inserted) return inserted.error();
    return std::string(c.pq.cmd_tuples(inserted->get())) == "1";
  });
}

core::Result<std::vector<StoredEvent>> PostgresRunStore::events(std::string_view run_id, std::int64_t after,
                                                                std::size_t limit) {
  std::lock_guard lock(mutex_);
  auto selected = connection_->run(
      "SELECT seq, event, data, created_at FROM planfirst_server_events WHERE run_id = $1 AND seq > $2 ORDER "
      "BY seq "
      "LIMIT $3",
      {std::string(run_id), std::to_string(after), std::to_string(limit)}, "reading events");
  if (!selected) return selected.error();
  std::vector<StoredEvent> events;
  for (int row = 0; row < connection_->pq.ntuples(selected->get()); ++row) {
    events.push_back({connection_->integer(selected->get(), row, 0),
                      connection_->text(selected->get(), row, 1), connection_->text(selected->get(), row, 2),
                      connection_->integer(selected->get(), row, 3)});
  }
  return events;
}

}  // namespace planfirst::server
