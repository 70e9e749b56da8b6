// Error is what an expected failure carries: a code chosen by what the caller should do next, a plain
// message, and where the fault lies (file:line, column, JSON pointer). A value type; copy freely.
#pragma once

#include <string>
#include <string_view>

namespace planfirst::core {

enum class ErrorCode {
  kInvalidArgument,     // the input is wrong: fix it (bad file, schema violation, unknown column)
  kNotFound,            // a named thing is missing (thread, contract, table)
  kFailedPrecondition,  // a gate refused (plan unvalidated, coverage missing): re-plan, no retry
  kConflict,            // stale checkpoint id on resume: reload, then decide
  kUnavailable,         // a service is down or slow: retry with backoff
  kInternal,            // a bug in planfirst
};

std::string_view to_string(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::string where;  // file:line, JSON pointer or field at fault; empty when none applies

  // "where: message" (or just the message), for users and logs.
  std::string describe() const;
};

inline Error invalid_argument(std::string message, std::string where = {}) {
  return {ErrorCode::kInvalidArgument, std::move(message), std::move(where)};
}
inline Error not_found(std::string message, std::string where = {}) {
  return {ErrorCode::kNotFound, std::move(message), std::move(where)};
}
inline Error failed_precondition(std::string message, std::string where = {}) {
  return {ErrorCode::kFailedPrecondition, std::move(message), std::move(where)};
}
inline Error unavailable(std::string message, std::string where = {}) {
  return {ErrorCode::kUnavailable, std::move(message), std::move(where)};
}
inline Error internal_error(std::string message, std::string where = {}) {
  return {ErrorCode::kInternal, std::move(message), std::move(where)};
}

}  // namespace planfirst::core
