#include "llm/contract_guard.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "contracts/contract_registry.hpp"
#include "core/metrics.hpp"

namespace planfirst::llm {

std::string GuardFailure::describe() const {
  std::string out = "contract " + contract + ": " + reason + " after " + std::to_string(attempts.size()) +
                    (attempts.size() == 1 ? " attempt" : " attempts");
  if (model_error) out += "\n" + model_error->describe();
  for (const contracts::Violation& violation : violations) out += "\n" + violation.describe();
  return out;
}

core::Error GuardFailure::error() const {
  if (model_error) {
    core::Error error = *model_error;
    error.message = "contract " + contract + ": " + error.message;
    return error;
  }
  return core::failed_precondition(describe(),
                                   violations.empty() ? std::string() : violations.front().pointer);
}

std::string reask_payload(const GuardAttempt& failed, std::string_view contract) {
  std::string out = failed.reason == "rejected"
                        ? "Your previous reply meets the contract \"" + std::string(contract) +
                              "\" but cannot be used. Errors, each at its JSON pointer:\n"
                        : "Your previous reply does not meet the contract \"" + std::string(contract) +
                              "\" (" + failed.reason + "). Errors, each at its JSON pointer:\n";
  for (const contracts::Violation& violation : failed.violations) out += "- " + violation.describe() + "\n";
  out += "Reply again with ONLY the corrected JSON object, no text before or after it.";
  return out;
}

GuardedCompletion ContractGuard::generate(CompletionRequest request,
                                          const core::CancellationToken* cancel) const {
  return generate(std::move(request), ReplyCheck(), cancel);
}

GuardedCompletion ContractGuard::generate(CompletionRequest request, const ReplyCheck& check,
                                          const core::CancellationToken* cancel) const {
  GuardFailure failure;
  failure.contract = request.contract;
  auto count = [&](const std::string& reason) {
    if (metrics_ != nullptr) {
      metrics_->counter("guard_failures_total", {{"contract", request.contract}, {"reason", reason}}).inc();
    }
  };
  auto give_up = [&]() -> GuardedCompletion {
    const GuardAttempt& last = failure.attempts.back();
    failure.reason = last.reason;
    failure.violations = last.violations;
    count("fallback");
    return failure;
  };

  const contracts::Contract* contract = nullptr;
  if (request.contract.empty()) {
    failure.model_error = core::invalid_argument("guarded generation needs a contract name");
  } else if (core::Result<const contracts::Contract*> found = contracts_.get(request.contract); !found) {
    failure.model_error = found.error();
  } else {
    contract = *found;
  }
  if (contract == nullptr) {
    failure.attempts.push_back({"", "model_error", {}});
    count("model_error");
    return give_up();
  }

  // Prose often holds bracketed citations ("see [1]"); an object contract skips top-level arrays.
  contracts::ExtractOptions extract = options_.extract;
  if (const core::Json& schema = contract->schema();
      schema.is_object() && schema.value("type", "") == "object") {
    extract.objects_only = true;
  }

  std::chrono::nanoseconds latency{0};
  TokenUsage usage;
  const int max_attempts = 1 + std::max(0, options_.max_reasks);
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    core::Result<Completion> reply = model_.complete(request, cancel);
    if (!reply) {
      failure.model_error = reply.error();
      failure.attempts.push_back({"", "model_error", {}});
      count("model_error");
      return give_up();
    }
    latency += reply->latency;
    usage.prompt += reply->usage.prompt;
    usage.completion += reply->usage.completion;

    GuardAttempt checked{reply->text, "", {}};
    contracts::ExtractedJson json = contracts::extract_first_json(reply->text, extract);
    if (!json) {
      checked.reason = std::string(contracts::to_string(json.error().kind));
      checked.violations.push_back(
          {"", checked.reason,
           json.error().message + " (at byte " + std::to_string(json.error().offset) + ")" +
               (reply->finish_reason == "length" ? "; the reply hit max_tokens" : "")});
    } else {
      contracts::ValidationReport report = contract->validate(*json);
      if (!report.ok()) {
        checked.reason = "schema";
        checked.violations = report.violations();
      } else if (std::vector<contracts::Violation> faults =
                     check ? check(*json) : std::vector<contracts::Violation>();
                 !faults.empty()) {
        checked.reason = "rejected";
        checked.violations = std::move(faults);
      } else {
        Completion out = std::move(*reply);
        out.json = std::make_shared<const core::Json>(std::move(*json));
        out.attempts = attempt;
        out.latency = latency;
        out.usage = usage;
        return out;
      }
    }
    count(checked.reason);
    failure.attempts.push_back(checked);
    if (attempt < max_attempts) {
      request.messages.push_back({"assistant", checked.reply});
      request.messages.push_back({"user", reask_payload(checked, request.contract)});
    }
  }
  return give_up();
}

}  // namespace planfirst::llm
