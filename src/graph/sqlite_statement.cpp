#include "graph/sqlite_statement.hpp"

namespace planfirst::graph {

core::Error sqlite_error(sqlite3* db, int code, std::string_view doing) {
  const std::string message =
      std::string(doing) + ": " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code));
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_FULL: return core::unavailable(message);
    case SQLITE_CONSTRAINT: return core::invalid_argument(message);
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT: return core::failed_precondition(message);
    default: return core::internal_error(message);
  }
}

}  // namespace planfirst::graph
