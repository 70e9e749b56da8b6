// ContractGuard is guarded generation: ask the model, extract the first JSON value from its reply,
// validate it against the request's contract and the stage's own check (when given), and on failure
// re-ask with a payload naming every error by JSON pointer, up to max_reasks times. The result is a
// validated completion or a GuardFailure that the calling stage turns into its fallback; never an
// exception. Immutable; threads may share one. Borrows the model, the contracts and the metrics (may
// be null): they outlive it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "contracts/json_extraction.hpp"
#include "contracts/validation_report.hpp"
#include "core/error.hpp"
#include "llm/model.hpp"

namespace planfirst::core {
class MetricsRegistry;
}
namespace planfirst::contracts {
class ContractRegistry;
}

namespace planfirst::llm {

struct GuardOptions {
  int max_reasks = 2;                 // config llm.max_reasks
  contracts::ExtractOptions extract;  // objects_only is forced on for a contract whose type is "object"
};

// Why an attempt failed: "no_json", "truncated", "too_large", "invalid" (extraction), "schema"
// (validation), "rejected" (the stage's ReplyCheck), "model_error" (the model call itself failed or
// was cancelled).
struct GuardAttempt {
  std::string reply;                             // the model's text ("" after a model error)
  std::string reason;                            // "" when the attempt passed
  std::vector<contracts::Violation> violations;  // schema errors, or one entry for an extraction error
};

struct GuardFailure {
  std::string contract;
  std::string reason;                            // the last attempt's
  std::vector<contracts::Violation> violations;  // the last attempt's, each by JSON pointer
  std::vector<GuardAttempt> attempts;            // every attempt, in order
  std::optional<core::Error> model_error;        // set when reason == "model_error"

  // "contract analyst_plan: <reason> after N attempts" then one line per violation.
  std::string describe() const;
  core::Error error() const;  // kUnavailable for a model error, kFailedPrecondition otherwise
};

// A validated completion (json set) or the failure, shaped like core::Result.
class [[nodiscard]] GuardedCompletion {
 public:
  GuardedCompletion(Completion completion) : state_(std::move(completion)) {}  // NOLINT
  GuardedCompletion(GuardFailure failure) : state_(std::move(failure)) {}      // NOLINT

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  const Completion& operator*() const { return std::get<0>(state_); }
  const Completion* operator->() const { return &std::get<0>(state_); }
  const GuardFailure& failure() const { return std::get<1>(state_); }  // REQUIRES: !has_value()

 private:
  std::variant<Completion, GuardFailure> state_;
};

// A stage's own check of a reply that met the contract (a column the data lacks, a plan that misses a
// requirement): every fault, each by JSON pointer; empty when the reply passes. A faulted reply is
// re-asked like a schema error, with reason "rejected".
using ReplyCheck = std::function<std::vector<contracts::Violation>(const core::Json&)>;

// The user message that re-asks after a failed attempt (seed 002 §6 style): the contract, the reason
// and one line per violation as "<pointer> [keyword] message".
std::string reask_payload(const GuardAttempt& failed, std::string_view contract);

class ContractGuard {
 public:
  ContractGuard(const Model& model, const contracts::ContractRegistry& contracts, GuardOptions options = {},
                core::MetricsRegistry* metrics = nullptr)
      : model_(model), contracts_(contracts), options_(std::move(options)), metrics_(metrics) {}

  // REQUIRES nothing of `request.contract`: an unknown or empty contract is a failure with reason
  // "model_error" (kNotFound / kInvalidArgument). Counts guard_failures_total{contract,reason} once
  // per failed attempt, reason "fallback" once when the guard gives up.
  GuardedCompletion generate(CompletionRequest request,
                             const core::CancellationToken* cancel = nullptr) const;
  // The same, with `check` run on every reply that meets the contract; a reply passes when both do.
  GuardedCompletion generate(CompletionRequest request, const ReplyCheck& check,
                             const core::CancellationToken* cancel = nullptr) const;

 private:
  const Model& model_;
  const contracts::ContractRegistry& contracts_;
  GuardOptions options_;
  core::MetricsRegistry* metrics_;  // may be null
};

}  // namespace planfirst::llm
