// configure_logging points spdlog's default logger, the one logger planfirst writes to, at stderr (or
// a borrowed stream) as text lines or one JSON object per line {"ts","level","logger","msg"}. Call it
// at start-up before threads log; log_* may then be called from any thread.
#pragma once

#include <fmt/format.h>

#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace planfirst::core {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError, kOff };

std::string_view to_string(LogLevel level);
Result<LogLevel> parse_log_level(std::string_view text);  // "trace".."error", "off"

struct LogOptions {
  std::string format = "text";  // "text" or "json"
  std::string level = "warn";   // see parse_log_level
  std::string logger = "planfirst";
  std::ostream* stream = nullptr;  // where lines go; nullptr = stderr. Must outlive the logger.
};

// kInvalidArgument naming the value when `format` or `level` is unknown; logging is then unchanged.
Result<void> configure_logging(const LogOptions& options);

bool log_enabled(LogLevel level);
void log_message(LogLevel level, std::string_view message);

template <typename... Args>
void log_at(LogLevel level, fmt::format_string<Args...> format, Args&&... args) {
  if (log_enabled(level)) log_message(level, fmt::format(format, std::forward<Args>(args)...));
}
template <typename... Args>
void log_debug(fmt::format_string<Args...> format, Args&&... args) {
  log_at(LogLevel::kDebug, format, std::forward<Args>(args)...);
}
template <typename... Args>
void log_info(fmt::format_string<Args...> format, Args&&... args) {
  log_at(LogLevel::kInfo, format, std::forward<Args>(args)...);
}
template <typename... Args>
void log_warn(fmt::format_string<Args...> format, Args&&... args) {
  log_at(LogLevel::kWarn, format, std::forward<Args>(args)...);
}
template <typename... Args>
void log_error(fmt::format_string<Args...> format, Args&&... args) {
  log_at(LogLevel::kError, format, std::forward<Args>(args)...);
}

}  // namespace planfirst::core
