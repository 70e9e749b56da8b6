#include "core/timestamp.hpp"

#include <gtest/gtest.h>

namespace planfirst::core {
namespace {

using namespace std::chrono;

constexpr sys_days kJan15 = sys_days{year{2024} / 1 / 15};

TEST(Timestamp, FormatsUtcToTheSecond) {
  const system_clock::time_point time = kJan15 + 10h + 20min + 30s + 999ms;

  EXPECT_EQ(format_utc_timestamp(time), "2024-01-15T10:20:30Z");
  EXPECT_EQ(format_utc_day(time), "2024-01-15");
}

TEST(Timestamp, ReadsZuluOffsetsAndFractions) {
  EXPECT_EQ(*parse_timestamp("2024-01-15T10:20:30Z"), kJan15 + 10h + 20min + 30s);
  EXPECT_EQ(*parse_timestamp("2024-01-15T10:20:30.123+01:00"), kJan15 + 9h + 20min + 30s);
  EXPECT_EQ(*parse_timestamp("2024-01-15T00:20:30-02:30"), kJan15 + 2h + 50min + 30s);
  EXPECT_EQ(*parse_timestamp("2024-01-15 10:20:30"), kJan15 + 10h + 20min + 30s);
}

TEST(Timestamp, FormatsYearsBeyondTheNanosecondClock) {
  EXPECT_EQ(format_utc_day(*parse_timestamp("4048-03-01T00:00:00Z")), "4048-03-01");
}

TEST(Timestamp, RefusesWhatIsNotRfc3339) {
  for (const char* text :
       {"", "2024-01-15", "2024-02-30T00:00:00Z", "2024-01-15T10:20:30+1", "2024-01-15T25:00:00Z",
        "2024-01-15T10:20:30.Z", "2024-01-15T10:20:30Zjunk", "yesterday"}) {
    const Result<sys_seconds> parsed = parse_timestamp(text);

    EXPECT_FALSE(parsed.has_value()) << text;
    if (!parsed) {
      EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgument);
    }
  }
}

}  // namespace
}  // namespace planfirst::core
