#include "core/logging.hpp"

#include <date/date.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <array>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>

namespace planfirst::core {
namespace {

constexpr std::array<std::pair<LogLevel, std::string_view>, 6> kLevelNames{{
    {LogLevel::kTrace, "trace"},
    {LogLevel::kDebug, "debug"},
    {LogLevel::kInfo, "info"},
    {LogLevel::kWarn, "warn"},
    {LogLevel::kError, "error"},
    {LogLevel::kOff, "off"},
}};

spdlog::level::level_enum to_spdlog(LogLevel level) {
  switch (level) {
    case LogLevel::kTrace: return spdlog::level::trace;
    case LogLevel::kDebug: return spdlog::level::debug;
    case LogLevel::kInfo: return spdlog::level::info;
    case LogLevel::kWarn: return spdlog::level::warn;
    case LogLevel::kError: return spdlog::level::err;
    case LogLevel::kOff: return spdlog::level::off;
  }
  return spdlog::level::off;
}

std::string_view level_name(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace: return "trace";
    case spdlog::level::debug: return "debug";
    case spdlog::level::info: return "info";
    case spdlog::level::warn: return "warn";
    case spdlog::level::err: return "error";
    case spdlog::level::critical: return "critical";
    default: return "off";
  }
}

// One JSON object per line: {"ts":"2024-01-15T10:20:30.123Z","level":"info","logger":..,"msg":..}.
class JsonLineFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const nlohmann::ordered_json line = {
        {"ts", date::format("%FT%TZ", std::chrono::floor<std::chrono::milliseconds>(msg.time))},
        {"level", level_name(msg.level)},
        {"logger", std::string_view(msg.logger_name.data(), msg.logger_name.size())},
        {"msg", std::string_view(msg.payload.data(), msg.payload.size())},
    };
    const std::string text = line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    dest.append(text.data(), text.data() + text.size());
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonLineFormatter>(); }
};

spdlog::sink_ptr make_sink(const LogOptions& options, bool json) {
  if (options.stream != nullptr) return std::make_shared<spdlog::sinks::ostream_sink_mt>(*options.stream);
  if (json) return std::make_shared<spdlog::sinks::stderr_sink_mt>();
  return std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
}

}  // namespace

std::string_view to_string(LogLevel level) {
  for (const auto& [value, name] : kLevelNames) {
    if (value == level) return name;
  }
  return "off";
}

Result<LogLevel> parse_log_level(std::string_view text) {
  for (const auto& [value, name] : kLevelNames) {
    if (name == text) return value;
  }
  return invalid_argument("unknown log level '" + std::string(text) +
                          "' (expected trace, debug, info, warn, error or off)");
}

Result<void> configure_logging(const LogOptions& options) {
  if (options.format != "text" && options.format != "json") {
    return invalid_argument("unknown log format '" + options.format + "' (expected text or json)");
  }
  Result<LogLevel> level = parse_log_level(options.level);
  if (!level) return level.error();
  const bool json = options.format == "json";
  auto logger = std::make_shared<spdlog::logger>(options.logger, make_sink(options, json));
  if (json) {
    logger->set_formatter(std::make_unique<JsonLineFormatter>());
  } else {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %^%l%$ [%n] %v", spdlog::pattern_time_type::utc);
  }
  logger->set_level(to_spdlog(*level));
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(std::move(logger));
  return ok();
}

bool log_enabled(LogLevel level) {
  return level != LogLevel::kOff && spdlog::default_logger_raw()->should_log(to_spdlog(level));
}

void log_message(LogLevel level, std::string_view message) {
  if (level == LogLevel::kOff) return;
  spdlog::default_logger_raw()->log(to_spdlog(level), spdlog::string_view_t(message.data(), message.size()));
}

}  // namespace planfirst::core
