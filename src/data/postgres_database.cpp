#include "data/postgres_database.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "core/libpq.hpp"
#include "core/trim.hpp"

namespace planfirst::data {
namespace {

using core::Error;
using core::Result;

// Type OIDs from PostgreSQL's pg_type catalog; stable across versions.
constexpr Oid kBoolOid = 16;
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt2Oid = 21;
constexpr Oid kInt4Oid = 23;
constexpr Oid kOidOid = 26;
constexpr Oid kFloat4Oid = 700;
constexpr Oid kFloat8Oid = 701;
constexpr Oid kNumericOid = 1700;
constexpr Oid kTextOid = 25;
constexpr Oid kBpcharOid = 1042;
constexpr Oid kVarcharOid = 1043;
constexpr Oid kNameOid = 19;
constexpr Oid kDateOid = 1082;
constexpr Oid kTimestampOid = 1114;
constexpr Oid kTimestamptzOid = 1184;

ColumnType column_type_of(Oid oid) {
  switch (oid) {
    case kBoolOid: return ColumnType::kBoolean;
    case kInt2Oid:
    case kInt4Oid:
    case kInt8Oid:
    case kOidOid: return ColumnType::kInteger;
    case kFloat4Oid:
    case kFloat8Oid:
    case kNumericOid: return ColumnType::kDouble;
    case kTextOid:
    case kVarcharOid:
    case kBpcharOid:
    case kNameOid: return ColumnType::kText;
    case kDateOid: return ColumnType::kDate;
    case kTimestampOid:
    case kTimestamptzOid: return ColumnType::kTimestamp;
    default: return ColumnType::kOther;
  }
}

Value parse_cell(ColumnType type, const char* text, int length) {
  const std::string_view cell(text, static_cast<std::size_t>(length));
  switch (type) {
    case ColumnType::kBoolean: return cell == "t";
    case ColumnType::kInteger: {
      std::int64_t value = 0;
      auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
      if (ec == std::errc() && end == cell.data() + cell.size()) return value;
      return std::strtod(text, nullptr);  // oid beyond int64 cannot happen; keep the magnitude
    }
    case ColumnType::kDouble: {
      double value = 0;
      auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
      if (ec == std::errc() && end == cell.data() + cell.size()) return value;
      return std::strtod(text, nullptr);  // "Infinity", "NaN", or out of double's range
    }
    default: return std::string(cell);
  }
}

std::string param_text(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kBool: return value.as_bool() ? "t" : "f";
    case Value::Kind::kDouble: {
      const double d = value.as_double();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      return value.to_string();
    }
    default: return value.to_string();
  }
}

Oid param_type(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kBool: return kBoolOid;
    case Value::Kind::kInt: return kInt8Oid;
    case Value::Kind::kDouble: return kFloat8Oid;
    default: return 0;  // unknown: the server infers it from context
  }
}

}  // namespace

struct PostgresDatabase::Connection {
  core::LibPq pq;
  core::PgConnHandle conn;
  DatabaseOptions options;
  std::map<Oid, std::string> type_names;  // cache of pg_type.typname for OIDs seen in results

  explicit Connection(core::LibPq api) : pq(api) {}

  std::string connection_message() const { return std::string(core::trim(pq.error_message(conn.get()))); }

  Error error(PGresult* result) const {
    if (pq.status(conn.get()) == CONNECTION_BAD) {
      return core::unavailable("connection to PostgreSQL lost: " + connection_message());
    }
    const char* state = result == nullptr ? nullptr : pq.result_error_field(result, PG_DIAG_SQLSTATE);
    std::string message(
        core::trim(result == nullptr ? pq.error_message(conn.get()) : pq.result_error_message(result)));
    const std::string sqlstate = state == nullptr ? "" : state;
    if (sqlstate == "57014" && options.statement_timeout.count() > 0 &&
        message.find("statement timeout") != std::string::npos) {
      return core::unavailable("statement timeout: PostgreSQL canceled the statement after " +
                               std::to_string(options.statement_timeout.count()) + " ms (" + message + ")");
    }
    if (sqlstate == "25006") return core::failed_precondition(std::move(message));
    if (sqlstate == "42P01") return core::not_found(std::move(message));
    const std::string sqlclass = sqlstate.substr(0, 2);
    if (sqlstate.empty() || sqlclass == "08" || sqlclass == "53" || sqlclass == "57" || sqlclass == "40" ||
        sqlclass == "58" || sqlclass == "XX") {
      return core::unavailable(std::move(message));
    }
    return core::invalid_argument(std::move(message));
  }

  // Session settings that the options ask for; applied at connect and after a reconnect.
  Result<void> configure() {
    std::string settings = "SET DateStyle = ISO";
    if (options.read_only) settings += "; SET default_transaction_read_only = on";
    if (options.statement_timeout.count() > 0) {
      settings += "; SET statement_timeout = " + std::to_string(options.statement_timeout.count());
    }
    const core::PgResultHandle result = pq.owned(pq.exec(conn.get(), settings.c_str()));
    if (pq.result_status(result.get()) != PGRES_COMMAND_OK) return error(result.get());
    return core::ok();
  }

  Result<void> ensure_connected() {
    if (pq.status(conn.get()) == CONNECTION_OK) return core::ok();
    pq.reset(conn.get());
    if (pq.status(conn.get()) != CONNECTION_OK) {
      return core::unavailable("cannot reconnect to PostgreSQL: " + connection_message());
    }
    return configure();
  }

  std::string type_name(Oid oid) {
    if (auto known = type_names.find(oid); known != type_names.end()) return known->second;
    const std::string oid_text = std::to_string(oid);
    const char* values[] = {oid_text.c_str()};
    const core::PgResultHandle result =
        pq.owned(pq.exec_params(conn.get(), "SELECT typname::text FROM pg_type WHERE oid = $1::oid", 1,
                                nullptr, values, nullptr, nullptr, 0));
    std::string name = "oid " + oid_text;
    if (pq.result_status(result.get()) == PGRES_TUPLES_OK && pq.ntuples(result.get()) == 1) {
      name = pq.getvalue(result.get(), 0, 0);
    }
    type_names.emplace(oid, name);
    return name;
  }

  Result<QueryResult> read(PGresult* result) {
    const int columns_count = pq.nfields(result);
    const int rows = pq.ntuples(result);
    std::vector<Column> columns(static_cast<std::size_t>(columns_count));
    for (int c = 0; c < columns_count; ++c) {
      Column& column = columns[c];
      column.name = pq.fname(result, c);
      const Oid oid = pq.ftype(result, c);
      column.type = column_type_of(oid);
      column.sql_type = type_name(oid);
      column.values.reserve(static_cast<std::size_t>(rows));
      for (int r = 0; r < rows; ++r) {
        if (pq.getisnull(result, r, c)) {
          column.values.emplace_back();
        } else {
          column.values.push_back(
              parse_cell(column.type, pq.getvalue(result, r, c), pq.getlength(result, r, c)));
        }
      }
    }
    return QueryResult(std::move(columns));
  }
};

PostgresDatabase::PostgresDatabase(std::unique_ptr<Connection> connection)
    : connection_(std::move(connection)) {}
PostgresDatabase::~PostgresDatabase() = default;

Result<std::unique_ptr<PostgresDatabase>> PostgresDatabase::connect(std::string_view uri,
                                                                    const DatabaseOptions& options) {
  Result<core::LibPq> pq = core::LibPq::load();
  if (!pq) return pq.error();
  auto connection = std::make_unique<Connection>(*pq);
  connection->options = options;
  Result<core::PgConnHandle> conn = core::pg_connect(connection->pq, std::string(uri), "");
  if (!conn) return conn.error();
  connection->conn = std::move(*conn);
  if (Result<void> configured = connection->configure(); !configured) return configured.error();
  return std::unique_ptr<PostgresDatabase>(new PostgresDatabase(std::move(connection)));
}

Result<QueryResult> PostgresDatabase::query(std::string_view sql, const std::vector<Value>& params) {
  if (Result<void> connected = connection_->ensure_connected(); !connected) return connected.error();
  std::vector<std::string> texts;
  std::vector<const char*> values;
  std::vector<Oid> types;
  texts.reserve(params.size());
  for (const Value& param : params) {
    texts.push_back(param_text(param));
    values.push_back(param.is_null() ? nullptr : texts.back().c_str());
    types.push_back(param_type(param));
  }
  const std::string text(sql);
  const core::LibPq& pq = connection_->pq;
  const core::PgResultHandle result =
      pq.owned(pq.exec_params(connection_->conn.get(), text.c_str(), static_cast<int>(params.size()),
                              types.data(), values.data(), nullptr, nullptr, 0));
  switch (pq.result_status(result.get())) {
    case PGRES_TUPLES_OK: return connection_->read(result.get());
    case PGRES_COMMAND_OK: return QueryResult();
    case PGRES_EMPTY_QUERY: return core::invalid_argument("no statement to run");
    default: return connection_->error(result.get());
  }
}

Result<void> PostgresDatabase::exec(std::string_view sql) {
  if (Result<void> connected = connection_->ensure_connected(); !connected) return connected.error();
  const std::string text(sql);
  const core::LibPq& pq = connection_->pq;
  const core::PgResultHandle result = pq.owned(pq.exec(connection_->conn.get(), text.c_str()));
  switch (pq.result_status(result.get())) {
    case PGRES_TUPLES_OK:
    case PGRES_COMMAND_OK:
    case PGRES_EMPTY_QUERY: return core::ok();
    default: return connection_->error(result.get());
  }
}

Result<core::Json> PostgresDatabase::explain_json(std::string_view sql, bool analyze) {
  const std::string prefix = analyze ? "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " : "EXPLAIN (FORMAT JSON) ";
  Result<QueryResult> result = query(prefix + std::string(sql));
  if (!result) return result.error();
  if (result->row_count() != 1 || result->column_count() != 1 ||
      result->at(0, 0).kind() != Value::Kind::kText) {
    return core::internal_error("PostgreSQL returned no JSON plan");
  }
  core::Json json = core::Json::parse(result->at(0, 0).as_text(), nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return core::internal_error("PostgreSQL returned a plan that is not JSON");
  return json;
}

Result<std::vector<std::string>> PostgresDatabase::table_names() {
  Result<QueryResult> result = query(
      "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() "
      "ORDER BY table_name");
  if (!result) return result.error();
  std::vector<std::string> names;
  for (const Value& value : result->column(0).values) names.push_back(value.to_string());
  return names;
}

}  // namespace planfirst::data
