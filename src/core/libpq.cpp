#include "core/libpq.hpp"

#include <dlfcn.h>

#include <string>

#include "core/shared_library.hpp"
#include "core/trim.hpp"

namespace planfirst::core {
namespace {

// Sets `target` to `name` in `library`; the first name not found goes to `missing`.
template <typename Function>
void bind(void* library, const char* name, Function& target, std::string& missing) {
  target = reinterpret_cast<Function>(::dlsym(library, name));
  if (target == nullptr && missing.empty()) missing = name;
}

void ignore_notice(void*, const char*) {}

}  // namespace

Result<LibPq> LibPq::load() {
  Result<void*> opened =
      open_shared_library(kLibrary, "PostgreSQL", "its client library", "on Debian: apt install libpq5");
  if (!opened) return opened.error();
  void* library = *opened;
  LibPq api;
  std::string missing;
  bind(library, "PQconnectdb", api.connectdb, missing);
  bind(library, "PQfinish", api.finish, missing);
  bind(library, "PQreset", api.reset, missing);
  bind(library, "PQstatus", api.status, missing);
  bind(library, "PQerrorMessage", api.error_message, missing);
  bind(library, "PQsetNoticeProcessor", api.set_notice_processor, missing);
  bind(library, "PQexec", api.exec, missing);
  bind(library, "PQexecParams", api.exec_params, missing);
  bind(library, "PQprepare", api.prepare, missing);
  bind(library, "PQexecPrepared", api.exec_prepared, missing);
  bind(library, "PQresultStatus", api.result_status, missing);
  bind(library, "PQresultErrorMessage", api.result_error_message, missing);
  bind(library, "PQresultErrorField", api.result_error_field, missing);
  bind(library, "PQntuples", api.ntuples, missing);
  bind(library, "PQnfields", api.nfields, missing);
  bind(library, "PQfname", api.fname, missing);
  bind(library, "PQftype", api.ftype, missing);
  bind(library, "PQgetvalue", api.getvalue, missing);
  bind(library, "PQgetlength", api.getlength, missing);
  bind(library, "PQgetisnull", api.getisnull, missing);
  bind(library, "PQcmdTuples", api.cmd_tuples, missing);
  bind(library, "PQclear", api.clear, missing);
  if (!missing.empty()) {
    return unavailable(std::string(kLibrary) + " has no function " + missing + "; is it an older libpq?",
                       kLibrary);
  }
  return api;
}

std::string redacted_uri(const std::string& uri) {
  const std::size_t scheme = uri.find("://");
  const std::size_t at = uri.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return uri;
  const std::size_t colon = uri.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return uri;
  return uri.substr(0, colon) + ":***" + uri.substr(at);
}

Result<PgConnHandle> pg_connect(const LibPq& pq, const std::string& uri, const std::string& where) {
  PgConnHandle conn = pq.owned(pq.connectdb(uri.c_str()));
  if (conn == nullptr) return unavailable("cannot allocate a PostgreSQL connection", where);
  if (pq.status(conn.get()) != CONNECTION_OK)
    return unavailable("cannot connect to PostgreSQL: " + std::string(trim(pq.error_message(conn.get()))),
                       where);
  pq.set_notice_processor(conn.get(), ignore_notice, nullptr);
  return conn;
}

Error pg_error(const LibPq& pq, PGconn* conn, const PGresult* result, std::string_view doing,
               const std::string& where) {
  const char* text = result != nullptr ? pq.result_error_message(result) : pq.error_message(conn);
  std::string message(
      trim(std::string(doing) + ": " + (text != nullptr && *text != '\0' ? text : pq.error_message(conn))));
  const char* state = result != nullptr ? pq.result_error_field(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  if (pq.status(conn) != CONNECTION_OK || sqlstate.starts_with("08") || sqlstate == "40001" ||
      sqlstate == "40P01" || sqlstate.starts_with("53") || sqlstate.starts_with("57")) {
    return unavailable(std::move(message), where);
  }
  if (sqlstate.starts_with("23") || sqlstate.starts_with("22"))
    return invalid_argument(std::move(message), where);
  return internal_error(std::move(message), where);
}

}  // namespace planfirst::core
