// LibPq is PostgreSQL's client library, libpq, loaded on first use: a process that never talks to
// PostgreSQL never loads it or the ~20 libraries it needs (Kerberos, LDAP, TLS). An immutable value
// of function pointers; the library stays loaded once loaded. Errors: kUnavailable naming the library.
#pragma once

#include <libpq-fe.h>

#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::core {

// Owning handles that free what libpq allocated through the loaded library.
struct PgResultClear {
  decltype(&::PQclear) clear = nullptr;
  void operator()(PGresult* result) const { clear(result); }
};
struct PgConnFinish {
  decltype(&::PQfinish) finish = nullptr;
  void operator()(PGconn* conn) const { finish(conn); }
};
using PgResultHandle = std::unique_ptr<PGresult, PgResultClear>;
using PgConnHandle = std::unique_ptr<PGconn, PgConnFinish>;

struct LibPq {
  static constexpr const char* kLibrary = "libpq.so.5";  // the soname of every libpq since PostgreSQL 8.0

  static Result<LibPq> load();

  PgResultHandle owned(PGresult* result) const { return PgResultHandle(result, PgResultClear{clear}); }
  PgConnHandle owned(PGconn* conn) const { return PgConnHandle(conn, PgConnFinish{finish}); }

  decltype(&::PQconnectdb) connectdb = nullptr;
  decltype(&::PQfinish) finish = nullptr;
  decltype(&::PQreset) reset = nullptr;
  decltype(&::PQstatus) status = nullptr;
  decltype(&::PQerrorMessage) error_message = nullptr;
  decltype(&::PQsetNoticeProcessor) set_notice_processor = nullptr;
  decltype(&::PQexec) exec = nullptr;
  decltype(&::PQexecParams) exec_params = nullptr;
  decltype(&::PQprepare) prepare = nullptr;
  decltype(&::PQexecPrepared) exec_prepared = nullptr;
  decltype(&::PQresultStatus) result_status = nullptr;
  decltype(&::PQresultErrorMessage) result_error_message = nullptr;
  decltype(&::PQresultErrorField) result_error_field = nullptr;
  decltype(&::PQntuples) ntuples = nullptr;
  decltype(&::PQnfields) nfields = nullptr;
  decltype(&::PQfname) fname = nullptr;
  decltype(&::PQftype) ftype = nullptr;
  decltype(&::PQgetvalue) getvalue = nullptr;
  decltype(&::PQgetlength) getlength = nullptr;
  decltype(&::PQgetisnull) getisnull = nullptr;
  decltype(&::PQcmdTuples) cmd_tuples = nullptr;
  decltype(&::PQclear) clear = nullptr;
};

// `uri` without its password, for messages.
std::string redacted_uri(const std::string& uri);

// A connection to `uri` whose notices (e.g. "relation already exists, skipping") are dropped, not
// printed; kUnavailable with libpq's reason and `where` when it cannot connect.
Result<PgConnHandle> pg_connect(const LibPq& pq, const std::string& uri, const std::string& where);

// The error of a failed command ("`doing`: " and the server's message), by SQLSTATE: kUnavailable
// when the connection is lost, the server is overloaded or shutting down, or a serialization failure
// or deadlock ended the transaction (retry); kInvalidArgument for a data or constraint error;
// kInternal otherwise. `result` may be null (the connection's message is used).
Error pg_error(const LibPq& pq, PGconn* conn, const PGresult* result, std::string_view doing,
               const std::string& where);

}  // namespace planfirst::core
