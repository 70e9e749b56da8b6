#include "core/date_parse.hpp"

#include <gtest/gtest.h>

#include <string>

namespace planfirst::core {
namespace {

using namespace std::chrono;

constexpr sys_days kJan15 = sys_days{year{2024} / 1 / 15};

struct Case {
  std::string text;
  sys_seconds expected;
  DateFormat format;
};

TEST(ParseDate, ReadsEveryKnownSpelling) {
  const Case cases[] = {
      {"2024-01-15", kJan15, DateFormat::kIsoDate},
      {"2024-01-15T10:20:30", kJan15 + 10h + 20min + 30s, DateFormat::kIsoDateTime},
      {"2024-01-15 10:20:30", kJan15 + 10h + 20min + 30s, DateFormat::kSpacedDateTime},
      {"2024/01/15", kJan15, DateFormat::kSlashedYmd},
      {"01/15/2024", kJan15, DateFormat::kUsSlashed},
      {"15.01.2024", kJan15, DateFormat::kDottedDmy},
      {"Jan 15, 2024", kJan15, DateFormat::kMonthDayYear},
      {"January 15 2024", kJan15, DateFormat::kMonthDayYear},
      {"15 Jan 2024", kJan15, DateFormat::kDayMonthYear},
      {"2024-01", sys_days{year{2024} / 1 / 1}, DateFormat::kYearMonth},
  };

  for (const Case& c : cases) {
    Result<ParsedDate> parsed = parse_date(c.text);

    ASSERT_TRUE(parsed) << c.text << ": " << parsed.error().describe();
    EXPECT_EQ(parsed->time, c.expected) << c.text;
    EXPECT_EQ(parsed->format, c.format) << c.text;
  }
}

TEST(ParseDate, IgnoresSurroundingSpacesAndMonthCase) {
  Result<ParsedDate> parsed = parse_date("  15 JANUARY 2024 ");

  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->day(), kJan15);
}

TEST(ParseDate, RejectsCalendarInvalidDatesNamingTheText) {
  Result<ParsedDate> parsed = parse_date("2024-02-30");

  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(parsed.error().message.find("'2024-02-30'"), std::string::npos);
}

TEST(ParseDate, AcceptsTheLeapDayOnlyInLeapYears) {
  EXPECT_TRUE(parse_date("2024-02-29"));
  EXPECT_FALSE(parse_date("2023-02-29"));
}

TEST(ParseDate, RejectsOutOfRangeTimesTrailingTextAndShortYears) {
  EXPECT_FALSE(parse_date("2024-01-15 25:00:00"));
  EXPECT_FALSE(parse_date("2024-01-15 extra"));
  EXPECT_FALSE(parse_date("13/01/2024"));
  EXPECT_FALSE(parse_date("15.01.24"));
  EXPECT_FALSE(parse_date("2024-13"));
  EXPECT_FALSE(parse_date(""));
}

}  // namespace
}  // namespace planfirst::core
