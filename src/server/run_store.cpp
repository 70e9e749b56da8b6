#include "server/run_store.hpp"

#include <array>
#include <utility>

namespace planfirst::server {
namespace {

constexpr std::array<std::pair<RunStatus, std::string_view>, 5> kNames{
    {{RunStatus::kPending, "pending"},
     {RunStatus::kRunning, "running"},
     {RunStatus::kSuccess, "success"},
     {RunStatus::kError, "error"},
     {RunStatus::kInterrupted, "interrupted"}}};

}  // namespace

std::string_view to_string(RunStatus status) {
  for (const auto& [value, name] : kNames) {
    if (value == status) return name;
  }
  return "error";
}

std::optional<RunStatus> parse_run_status(std::string_view text) {
  for (const auto& [value, name] : kNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

Millis now_millis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace planfirst::server
