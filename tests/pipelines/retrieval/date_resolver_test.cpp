#include "pipelines/retrieval/date_resolver.hpp"

#include <gtest/gtest.h>

#include "core/clock.hpp"
#include "pipelines/retrieval/query_outcome.hpp"

namespace planfirst::retrieval {
namespace {

using std::chrono::sys_days;
using namespace std::chrono_literals;

// Wednesday 2024-01-17 10:30 UTC.
const core::ManualClock& wednesday() {
  static const core::ManualClock kClock(sys_days(std::chrono::year(2024) / 1 / 17) + 10h + 30min);
  return kClock;
}

std::string range_of(std::string_view value, const TimeZone& zone = {}) {
  core::Result<sources::TimeRange> range = DateResolver(wednesday().now(), zone).resolve(value);
  if (!range) return "error: " + range.error().message;
  return iso_utc(range->since) + " .. " + iso_utc(range->until);
}

TEST(RetrievalDateResolver, ResolvesRelativeDatesAgainstTheClock) {
  EXPECT_EQ(range_of("today"), "2024-01-17T00:00:00Z .. 2024-01-18T00:00:00Z");
  EXPECT_EQ(range_of("yesterday"), "2024-01-16T00:00:00Z .. 2024-01-17T00:00:00Z");
  EXPECT_EQ(range_of("this week"), "2024-01-15T00:00:00Z .. 2024-01-22T00:00:00Z");
  EXPECT_EQ(range_of("last week"), "2024-01-08T00:00:00Z .. 2024-01-15T00:00:00Z");
  EXPECT_EQ(range_of("this month"), "2024-01-01T00:00:00Z .. 2024-02-01T00:00:00Z");
  EXPECT_EQ(range_of("last month"), "2023-12-01T00:00:00Z .. 2024-01-01T00:00:00Z");
  EXPECT_EQ(range_of("last quarter"), "2023-10-01T00:00:00Z .. 2024-01-01T00:00:00Z");
  EXPECT_EQ(range_of("this year"), "2024-01-01T00:00:00Z .. 2025-01-01T00:00:00Z");
  EXPECT_EQ(range_of("last 3 days"), "2024-01-14T00:00:00Z .. 2024-01-18T00:00:00Z");
}

TEST(RetrievalDateResolver, ResolvesAbsoluteDatesAndMonths) {
  EXPECT_EQ(range_of("2024-01-15"), "2024-01-15T00:00:00Z .. 2024-01-16T00:00:00Z");
  EXPECT_EQ(range_of("2023-12"), "2023-12-01T00:00:00Z .. 2024-01-01T00:00:00Z");
}

TEST(RetrievalDateResolver, ReadsDaysInTheGivenZone) {
  core::Result<TimeZone> tokyo = TimeZone::parse("+09:00");
  ASSERT_TRUE(tokyo.has_value());

  EXPECT_EQ(range_of("today", *tokyo), "2024-01-16T15:00:00Z .. 2024-01-17T15:00:00Z");
}

TEST(RetrievalDateResolver, ReadsIanaZonesFromTheTzDatabase) {
  core::Result<TimeZone> new_york = TimeZone::parse("America/New_York");
  if (!new_york) GTEST_SKIP() << "no tz database: " << new_york.error().describe();

  EXPECT_EQ(range_of("yesterday", *new_york), "2024-01-16T05:00:00Z .. 2024-01-17T05:00:00Z");
}

TEST(RetrievalDateResolver, SpansSeveralValues) {
  core::Result<std::optional<sources::TimeRange>> span =
      DateResolver(wednesday().now(), {}).resolve_all({"2024-01-02", "yesterday"});

  ASSERT_TRUE(span.has_value() && span->has_value());
  EXPECT_EQ(iso_utc((*span)->since), "2024-01-02T00:00:00Z");
  EXPECT_EQ(iso_utc((*span)->until), "2024-01-17T00:00:00Z");
}

TEST(RetrievalDateResolver, NamesAValueItCannotRead) {
  EXPECT_EQ(range_of("next blue moon"), "error: cannot resolve the date \"next blue moon\"");
  EXPECT_FALSE(TimeZone::parse("Mars/Olympus").has_value());
  EXPECT_FALSE(TimeZone::parse("+25:00").has_value());
}

}  // namespace
}  // namespace planfirst::retrieval
