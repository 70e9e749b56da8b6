#include "data/sqlite_database.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/ascii_case.hpp"

namespace planfirst::data {
namespace {

using core::Error;
using core::Result;

// A prepared statement, finalized on destruction.
class Statement {
 public:
  Statement() = default;
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  sqlite3_stmt* get() const { return statement_; }
  sqlite3_stmt** out() { return &statement_; }

 private:
  sqlite3_stmt* statement_ = nullptr;
};

// Storage classes seen in a column, as bits (1 << SQLITE_INTEGER etc.).
constexpr unsigned kSawInteger = 1u << SQLITE_INTEGER;
constexpr unsigned kSawFloat = 1u << SQLITE_FLOAT;
constexpr unsigned kSawText = 1u << SQLITE_TEXT;
constexpr unsigned kSawBlob = 1u << SQLITE_BLOB;

// The column type SQLite's declared type suggests, following its affinity rules; nullopt when the
// column has no declared type (an expression).
std::optional<ColumnType> declared_type(const char* declared) {
  if (declared == nullptr || *declared == '\0') return std::nullopt;
  const std::string d = core::ascii_upper(declared);
  auto has = [&d](const char* word) { return d.find(word) != std::string::npos; };
  if (has("BOOL")) return ColumnType::kBoolean;
  if (has("DATETIME") || has("TIMESTAMP")) return ColumnType::kTimestamp;
  if (has("DATE")) return ColumnType::kDate;
  if (has("INT")) return ColumnType::kInteger;
  if (has("CHAR") || has("CLOB") || has("TEXT")) return ColumnType::kText;
  if (has("BLOB")) return ColumnType::kOther;
  return ColumnType::kDouble;  // REAL, FLOAT, DOUBLE, NUMERIC, DECIMAL
}

ColumnType inferred_type(unsigned seen) {
  if (seen == 0 || (seen & kSawBlob) != 0) return ColumnType::kOther;
  if (seen == kSawInteger) return ColumnType::kInteger;
  if ((seen & ~(kSawInteger | kSawFloat)) == 0) return ColumnType::kDouble;
  if (seen == kSawText) return ColumnType::kText;
  return ColumnType::kOther;
}

bool fits(ColumnType type, unsigned seen, const std::vector<Value>& values) {
  switch (type) {
    case ColumnType::kBoolean:
      if ((seen & ~kSawInteger) != 0) return false;
      return std::all_of(values.begin(), values.end(),
                         [](const Value& v) { return v.is_null() || v.as_int() == 0 || v.as_int() == 1; });
    case ColumnType::kInteger: return (seen & ~kSawInteger) == 0;
    case ColumnType::kDouble: return (seen & ~(kSawInteger | kSawFloat)) == 0;
    case ColumnType::kText:
    case ColumnType::kDate:
    case ColumnType::kTimestamp: return (seen & ~kSawText) == 0;
    case ColumnType::kOther: return true;
  }
  return true;
}

// Settles a column's type from its declared type and the storage classes of its values, and
// converts the values to match (0/1 -> bool, integer -> double).
void settle(Column& column, const char* declared, unsigned seen) {
  const std::optional<ColumnType> from_declaration = declared_type(declared);
  ColumnType type = from_declaration.value_or(inferred_type(seen));
  if (!fits(type, seen, column.values)) type = ColumnType::kOther;
  column.type = type;
  if (declared != nullptr && *declared != '\0') {
    column.sql_type = declared;
  } else {
    column.sql_type = seen == kSawInteger ? "INTEGER"
                      : seen == kSawFloat ? "REAL"
                      : seen == kSawText  ? "TEXT"
                                          : "";
  }
  for (Value& value : column.values) {
    if (value.kind() != Value::Kind::kInt) continue;
    if (type == ColumnType::kBoolean) value = Value(value.as_int() != 0);
    if (type == ColumnType::kDouble) value = Value(static_cast<double>(value.as_int()));
  }
}

std::string blob_text(const void* data, int size) {
  std::string text;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (int i = 0; i < size; ++i) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "\\x%02X", static_cast<unsigned>(bytes[i]));
    text += buffer;
  }
  return text;
}

Value read_cell(sqlite3_stmt* statement, int column) {
  switch (sqlite3_column_type(statement, column)) {
    case SQLITE_INTEGER: return static_cast<std::int64_t>(sqlite3_column_int64(statement, column));
    case SQLITE_FLOAT: return sqlite3_column_double(statement, column);
    case SQLITE_TEXT: {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
      return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, column)));
    }
    case SQLITE_BLOB: {
      const void* blob = sqlite3_column_blob(statement, column);
      return blob_text(blob, sqlite3_column_bytes(statement, column));
    }
    default: return {};
  }
}

bool only_whitespace(const char* text) {
  for (; *text != '\0'; ++text) {
    if (!std::isspace(static_cast<unsigned char>(*text)) && *text != ';') return false;
  }
  return true;
}

}  // namespace

struct SqliteDatabase::Connection {
  sqlite3* db = nullptr;
  std::string path;
  DatabaseOptions options;
  std::optional<std::chrono::steady_clock::time_point> deadline;  // of the running statement
  bool timed_out = false;

  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() { sqlite3_close_v2(db); }

  static int on_progress(void* self) {
    auto* connection = static_cast<Connection*>(self);
    if (connection->deadline && std::chrono::steady_clock::now() >= *connection->deadline) {
      connection->timed_out = true;
      return 1;  // interrupts the statement with SQLITE_INTERRUPT
    }
    return 0;
  }

  void start_statement() {
    timed_out = false;
    if (options.statement_timeout.count() > 0) {
      deadline = std::chrono::steady_clock::now() + options.statement_timeout;
    }
  }

  Error error(int code) const {
    std::string message = sqlite3_errmsg(db);
    switch (code & 0xff) {
      case SQLITE_INTERRUPT:
        if (timed_out) {
          return core::unavailable("statement timeout: SQLite interrupted the statement after " +
                                   std::to_string(options.statement_timeout.count()) + " ms");
        }
        return core::unavailable(std::move(message));
      case SQLITE_BUSY:
      case SQLITE_LOCKED:
      case SQLITE_NOMEM:
      case SQLITE_IOERR:
      case SQLITE_FULL:
      case SQLITE_CANTOPEN: return core::unavailable(std::move(message));
      case SQLITE_READONLY:
      case SQLITE_PERM:
      case SQLITE_AUTH: return core::failed_precondition(std::move(message));
      case SQLITE_MISUSE:
      case SQLITE_INTERNAL: return core::internal_error(std::move(message));
      default:
        if (message.starts_with("no such table")) return core::not_found(std::move(message));
        return core::invalid_argument(std::move(message));
    }
  }

  Result<void> bind(sqlite3_stmt* statement, const std::vector<Value>& params) const {
    const int expected = sqlite3_bind_parameter_count(statement);
    if (static_cast<std::size_t>(expected) != params.size()) {
      return core::invalid_argument("the statement has " + std::to_string(expected) + " parameter(s) but " +
                                    std::to_string(params.size()) + " value(s) were given");
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      const Value& value = params[i];
      const int index = static_cast<int>(i) + 1;
      int rc = SQLITE_OK;
      switch (value.kind()) {
        case Value::Kind::kNull: rc = sqlite3_bind_null(statement, index); break;
        case Value::Kind::kBool: rc = sqlite3_bind_int(statement, index, value.as_bool() ? 1 : 0); break;
        case Value::Kind::kInt: rc = sqlite3_bind_int64(statement, index, value.as_int()); break;
        case Value::Kind::kDouble: rc = sqlite3_bind_double(statement, index, value.as_double()); break;
        case Value::Kind::kText:
          rc = sqlite3_bind_text64(statement, index, value.as_text().data(), value.as_text().size(),
                                   SQLITE_TRANSIENT, SQLITE_UTF8);
          break;
      }
      if (rc != SQLITE_OK) return error(rc);
    }
    return core::ok();
  }

  Result<QueryResult> run(std::string_view sql, const std::vector<Value>& params) {
    Statement statement;
    const char* tail = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), statement.out(), &tail);
    if (rc != SQLITE_OK) return error(rc);
    if (statement.get() == nullptr) return core::invalid_argument("no statement to run");
    if (tail != nullptr && tail < sql.data() + sql.size()) {
      const std::string rest(tail, sql.data() + sql.size() - tail);
      Statement next;
      if (!only_whitespace(rest.c_str()) &&
          (sqlite3_prepare_v2(db, rest.c_str(), -1, next.out(), nullptr) != SQLITE_OK ||
           next.get() != nullptr)) {
        return core::invalid_argument("query() runs one statement; use exec() for scripts");
      }
    }
    if (Result<void> bound = bind(statement.get(), params); !bound) return bound.error();

    const int column_count = sqlite3_column_count(statement.get());
    std::vector<Column> columns(static_cast<std::size_t>(column_count));
    std::vector<unsigned> seen(columns.size(), 0);
    for (int c = 0; c < column_count; ++c) {
      const char* name = sqlite3_column_name(statement.get(), c);
      columns[c].name = name == nullptr ? "" : name;
    }
    start_statement();
    while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW) {
      for (int c = 0; c < column_count; ++c) {
        const int storage = sqlite3_column_type(statement.get(), c);
        if (storage != SQLITE_NULL) seen[c] |= 1u << storage;
        columns[c].values.push_back(read_cell(statement.get(), c));
      }
    }
    deadline.reset();
    if (rc != SQLITE_DONE) return error(rc);
    for (int c = 0; c < column_count; ++c)
      settle(columns[c], sqlite3_column_decltype(statement.get(), c), seen[c]);
    return QueryResult(std::move(columns));
  }
};

SqliteDatabase::SqliteDatabase(std::unique_ptr<Connection> connection) : connection_(std::move(connection)) {}
SqliteDatabase::~SqliteDatabase() = default;

Result<std::unique_ptr<SqliteDatabase>> SqliteDatabase::open(std::string_view path,
                                                             const DatabaseOptions& options) {
  auto connection = std::make_unique<Connection>();
  connection->path = path.empty() ? ":memory:" : std::string(path);
  connection->options = options;
  const bool in_memory = connection->path == ":memory:";
  std::error_code ec;
  if (options.read_only && !in_memory && !std::filesystem::exists(connection->path, ec)) {
    return core::not_found("SQLite database file not found: " + connection->path, connection->path);
  }
  const int flags =
      options.read_only && !in_memory ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(connection->path.c_str(), &connection->db, flags, nullptr) != SQLITE_OK) {
    const std::string message = connection->db == nullptr ? "out of memory" : sqlite3_errmsg(connection->db);
    return core::unavailable("cannot open SQLite database " + connection->path + ": " + message,
                             connection->path);
  }
  sqlite3_extended_result_codes(connection->db, 1);
  sqlite3_busy_timeout(connection->db, 5000);
  if (options.statement_timeout.count() > 0) {
    sqlite3_progress_handler(connection->db, 1000, &Connection::on_progress, connection.get());
  }
  auto database = std::unique_ptr<SqliteDatabase>(new SqliteDatabase(std::move(connection)));
  if (options.read_only) {
    if (Result<void> guarded = database->exec("PRAGMA query_only = ON"); !guarded) return guarded.error();
  }
  return database;
}

Result<QueryResult> SqliteDatabase::query(std::string_view sql, const std::vector<Value>& params) {
  return connection_->run(sql, params);
}

Result<void> SqliteDatabase::exec(std::string_view sql) {
  const std::string text(sql);
  connection_->start_statement();
  char* message = nullptr;
  const int rc = sqlite3_exec(connection_->db, text.c_str(), nullptr, nullptr, &message);
  connection_->deadline.reset();
  sqlite3_free(message);  // sqlite3_errmsg() still holds it
  if (rc != SQLITE_OK) return connection_->error(rc);
  return core::ok();
}

Result<core::Json> SqliteDatabase::explain_json(std::string_view sql, bool analyze) {
  if (analyze)
    return core::invalid_argument("SQLite has no EXPLAIN ANALYZE; ask for the plan without analyze");
  Result<QueryResult> result = query("EXPLAIN QUERY PLAN " + std::string(sql));
  if (!result) return result.error();
  // Rows are (id, parent, notused, detail) in tree order; parent 0 is the root.
  std::map<std::int64_t, core::Json> nodes;
  std::vector<std::pair<std::int64_t, std::int64_t>> order;  // (id, parent)
  for (std::size_t row = 0; row < result->row_count(); ++row) {
    const std::int64_t id = result->at(row, 0).as_int();
    const std::int64_t parent = result->at(row, 1).as_int();
    nodes[id] = core::Json{{"id", id},
                           {"parent", parent},
                           {"detail", result->at(row, 3).to_string()},
                           {"children", core::Json::array()}};
    order.emplace_back(id, parent);
  }
  // Attach children bottom-up so each subtree is complete before it moves into its parent.
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    auto parent = nodes.find(it->second);
    if (it->second == 0 || parent == nodes.end()) continue;
    auto& children = parent->second["children"];
    children.insert(children.begin(), std::move(nodes[it->first]));
    nodes.erase(it->first);
  }
  core::Json plan = core::Json::array();
  for (const auto& [id, parent] : order) {
    if (auto node = nodes.find(id); node != nodes.end()) plan.push_back(std::move(node->second));
  }
  return core::Json{{"plan", std::move(plan)}};
}

Result<std::vector<std::string>> SqliteDatabase::table_names() {
  Result<QueryResult> result = query(
      "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE "
      "'\\' "
      "ORDER BY name");
  if (!result) return result.error();
  std::vector<std::string> names;
  for (const Value& value : result->column(0).values) names.push_back(value.to_string());
  return names;
}

}  // namespace planfirst::data
