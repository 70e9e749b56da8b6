#include "core/libpq.hpp"

#include <dlfcn.h>

#include <string>

#include "core/shared_library.hpp"

namespace planfirst::core {
namespace {

// Sets `target` to `name` in `library`; the first name not found goes to `missing`.
template <typename Function>
void bind(void* library, const char* name, Function& target, std::string& missing) {
  target = reinterpret_cast<Function>(::dlsym(library, name));
  if (target == nullptr && missing.empty()) missing = name;
}

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

}  // namespace planfirst::core
