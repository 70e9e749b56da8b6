#include "contracts/validation_report.hpp"

namespace planfirst::contracts {

std::string Violation::describe() const {
  return (pointer.empty() ? std::string("/") : pointer) + " [" + keyword + "] " + message;
}

std::string ValidationReport::describe() const {
  std::string text;
  for (const Violation& violation : violations_) {
    text += violation.describe();
    text += '\n';
  }
  return text;
}

core::Error ValidationReport::error() const {
  if (violations_.empty()) return core::internal_error("ValidationReport::error() called on a valid report");
  std::string message = std::to_string(violations_.size()) + " contract violation" +
                        (violations_.size() == 1 ? "" : "s") + ": ";
  for (std::size_t i = 0; i < violations_.size(); ++i) {
    if (i > 0) message += "; ";
    message += violations_[i].describe();
  }
  return core::invalid_argument(std::move(message),
                                violations_.front().pointer.empty() ? "/" : violations_.front().pointer);
}

core::Result<void> ValidationReport::to_result() const {
  if (ok()) return core::ok();
  return error();
}

}  // namespace planfirst::contracts
