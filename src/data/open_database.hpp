// open_database picks the engine from a URI and opens it: "duckdb:PATH", "duckdb::memory:", a path
// ending in .duckdb, "sqlite:PATH", "sqlite::memory:", a path ending in .sqlite or .sqlite3, or
// "postgresql://..." / "postgres://..." (passed to libpq whole). The caller owns the result.
#pragma once

#include <memory>
#include <string_view>

#include "core/result.hpp"
#include "data/database.hpp"

namespace planfirst::data {

// Errors: kInvalidArgument for a URI no engine claims (the message lists the accepted forms), or
// the engine's own open error (kNotFound, kUnavailable).
core::Result<std::unique_ptr<Database>> open_database(std::string_view uri,
                                                      const DatabaseOptions& options = {});

// Whether `uri` names a PostgreSQL server ("postgresql://..." or "postgres://...").
bool is_postgres_uri(std::string_view uri);

}  // namespace planfirst::data
