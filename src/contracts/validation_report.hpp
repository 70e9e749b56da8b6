// ValidationReport lists every way a JSON value breaks a contract: schema keywords and the contract's
// named cross-field rules alike, each at the JSON pointer of the field at fault. An empty report
// means valid. A value type; reports of the same input compare equal and print the same bytes.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/result.hpp"

namespace planfirst::contracts {

struct Violation {
  std::string pointer;  // RFC 6901, "" for the whole value; a missing or unwanted property is named
                        // by its own pointer, e.g. "/track" for a missing "track"
  std::string keyword;  // the schema keyword ("enum", "required", "additionalProperties", ...) or
                        // the rule's name ("status_requires_db")
  std::string message;  // plain words, e.g. "\"STATUS_REPORT\" is not one of STATUS_METRIC, ..."

  std::string describe() const;  // "<pointer or /> [keyword] message"
  bool operator==(const Violation&) const = default;
};

class ValidationReport {
 public:
  ValidationReport() = default;
  explicit ValidationReport(std::vector<Violation> violations) : violations_(std::move(violations)) {}

  bool ok() const { return violations_.empty(); }
  explicit operator bool() const { return ok(); }
  const std::vector<Violation>& violations() const { return violations_; }

  // One violation per line, as describe() prints them; what a re-ask sends back to the model.
  std::string describe() const;
  // kInvalidArgument naming every violation; where = the first violation's pointer.
  // REQUIRES: !ok().
  core::Error error() const;
  core::Result<void> to_result() const;

 private:
  std::vector<Violation> violations_;
};

}  // namespace planfirst::contracts
