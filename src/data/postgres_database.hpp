// PostgresDatabase is a Database on a PostgreSQL server over libpq. Options become session
// settings at connect: read-only sets default_transaction_read_only, the timeout sets
// statement_timeout (the server cancels; kUnavailable). Owns its connection; destruction closes it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/database.hpp"

namespace planfirst::data {

class PostgresDatabase final : public Database {
 public:
  // `uri` is a libpq connection string: "postgresql://user@host:5432/db?sslmode=disable" or
  // "host=... dbname=...". Errors: kUnavailable with libpq's message when the connection fails.
  static core::Result<std::unique_ptr<PostgresDatabase>> connect(std::string_view uri,
                                                                 const DatabaseOptions& options = {});
  ~PostgresDatabase() override;
  PostgresDatabase(const PostgresDatabase&) = delete;
  PostgresDatabase& operator=(const PostgresDatabase&) = delete;

  std::string_view engine() const override { return "postgresql"; }
  // Placeholders are $1, $2, ...; text parameters are sent untyped, so the server infers the type
  // from context. Results come back as text and are parsed by type: int2/4/8 -> integer,
  // float4/8 and numeric -> double, date -> date, timestamp[tz] -> timestamp, others as text.
  core::Result<QueryResult> query(std::string_view sql, const std::vector<Value>& params = {}) override;
  core::Result<void> exec(std::string_view sql) override;
  core::Result<core::Json> explain_json(std::string_view sql, bool analyze) override;
  core::Result<std::vector<std::string>> table_names() override;

 private:
  struct Connection;
  explicit PostgresDatabase(std::unique_ptr<Connection> connection);

  std::unique_ptr<Connection> connection_;
};

}  // namespace planfirst::data
