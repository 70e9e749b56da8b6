// SourceFixture is what every remote-source test starts from: the protocol's loopback test server, a
// RecordingSleeper (no test waits for a backoff), a ManualClock at 2024-04-10T12:00:00Z, an environment
// holding the server's token, and options pointing at the server (10 per page, 2 retries, no jitter).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/clock.hpp"
#include "core/config.hpp"
#include "core/sleeper.hpp"

namespace planfirst::sources {

inline constexpr std::chrono::sys_days kJan1 = std::chrono::sys_days{std::chrono::year{2024} / 1 / 1};

template <typename Server, typename Source, typename Options>
struct SourceFixture : ::testing::Test {
  explicit SourceFixture(std::string token_env) : env{{std::move(token_env), Server::kToken}} {}

  Server server;
  core::RecordingSleeper sleeper;
  core::ManualClock clock{kJan1 + std::chrono::days(100) + std::chrono::hours(12)};
  core::Environment env;

  Options options() const {
    Options o;
    o.base_url = server.base_url();
    o.page_size = 10;
    o.http.jitter = 0.0;
    o.http.initial_backoff = std::chrono::milliseconds(100);
    o.http.max_retries = 2;
    return o;
  }
  std::unique_ptr<Source> source(Options o) {
    auto made = Source::create(std::move(o), clock, sleeper, env);
    if (!made) throw std::runtime_error(made.error().describe());
    return std::move(*made);
  }
  std::unique_ptr<Source> source() { return source(options()); }
};

}  // namespace planfirst::sources
