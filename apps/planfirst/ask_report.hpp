// AskReport renders the state an autoviz run ends in for a person (to_text: the answer first, its
// headline and the first kAnswerRows rows of its table, then the plan, what each step satisfies, the
// coverage verdict, what ran and what was produced) or for a program (to_json: the same as one
// document, the answer under "answer"). Deterministic: same state, same bytes.
#pragma once

#include <cstddef>
#include <string>

#include "core/json.hpp"

namespace planfirst::cli {

inline constexpr std::size_t kAnswerRows = 10;  // rows of the answer's table the terminal shows

class AskReport {
 public:
  // REQUIRES: `state` outlives the report.
  AskReport(const core::Json& state, bool explain) : state_(state), explain_(explain) {}

  // A plan-only run: its coverage is complete; a full run: it produced its report.
  bool succeeded() const;
  std::string to_text() const;
  core::Json to_json() const;

 private:
  const core::Json& state_;
  bool explain_;
};

}  // namespace planfirst::cli
