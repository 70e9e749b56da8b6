#include "core/error.hpp"

namespace planfirst::core {

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kFailedPrecondition: return "failed_precondition";
    case ErrorCode::kConflict: return "conflict";
    case ErrorCode::kUnavailable: return "unavailable";
    case ErrorCode::kInternal: return "internal";
  }
  return "internal";
}

std::string Error::describe() const {
  if (where.empty()) return message;
  return where + ": " + message;
}

}  // namespace planfirst::core
