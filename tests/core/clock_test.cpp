#include "core/clock.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace planfirst::core {
namespace {

using namespace std::chrono_literals;

TEST(ManualClock, StandsStillUntilAdvanced) {
  const std::chrono::sys_days start{std::chrono::year{2024} / 1 / 15};
  ManualClock clock(start);
  const auto steady_start = clock.steady_now();

  clock.advance(90s);

  EXPECT_EQ(clock.now(), start + 90s);
  EXPECT_EQ(clock.steady_now() - steady_start, 90s);
}

TEST(ManualClock, SetMovesWallTimeButNotSteadyTime) {
  ManualClock clock;
  const auto steady_before = clock.steady_now();
  const std::chrono::sys_days day{std::chrono::year{2030} / 6 / 1};

  clock.set(day);

  EXPECT_EQ(clock.now(), day);
  EXPECT_EQ(clock.steady_now(), steady_before);
}

TEST(ManualClock, RefusesToGoBack) {
  ManualClock clock;

  EXPECT_THROW(clock.advance(-1s), std::logic_error);
}

TEST(SystemClock, ReadsTheRealWallClock) {
  const SystemClock clock;
  const auto before = std::chrono::system_clock::now();

  const auto now = clock.now();

  EXPECT_LE(before, now);
  EXPECT_LE(now, std::chrono::system_clock::now());
}

}  // namespace
}  // namespace planfirst::core
