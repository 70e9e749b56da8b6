#include "core/reference_day.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::core {
namespace {

using std::chrono::sys_days;

constexpr sys_days kDay = sys_days{std::chrono::year{2026} / 11 / 25};

TEST(ReferenceDayTest, ReadsADayWrittenYearMonthDay) {
  const Result<sys_days> day = parse_reference_day("2026-11-25", "--as-of");

  ASSERT_TRUE(day) << day.error().describe();
  EXPECT_EQ(*day, kDay);
}

TEST(ReferenceDayTest, RefusesOtherSpellingsAndImpossibleDaysNamingTheFlag) {
  for (const char* text : {"2026-11", "11/25/2026", "2026-02-30", "tomorrow", "", "2026-11-25T10:00:00"}) {
    const Result<sys_days> day = parse_reference_day(text, "--as-of");

    ASSERT_FALSE(day) << text;
    EXPECT_EQ(day.error().code, ErrorCode::kInvalidArgument) << text;
    EXPECT_NE(day.error().message.find("--as-of must be a day written YYYY-MM-DD"), std::string::npos)
        << day.error().message;
  }
}

TEST(ReferenceDayTest, TheClocksDayIsTheUtcDayOfNow) {
  const ReferenceDay day = reference_day_from_clock(kDay + std::chrono::hours(23) + std::chrono::minutes(59));

  EXPECT_EQ(day.day, kDay);
  EXPECT_EQ(day.origin, ReferenceOrigin::kClock);
  EXPECT_EQ(day.describe(), "2026-11-25 (today)");
}

TEST(ReferenceDayTest, DescribeSaysWhoSetIt) {
  EXPECT_EQ((ReferenceDay{kDay, ReferenceOrigin::kFlag, "--as-of"}).describe(),
            "2026-11-25 (set by --as-of)");
  EXPECT_EQ((ReferenceDay{kDay, ReferenceOrigin::kProject, "orbit/planfirst.toml"}).describe(),
            "2026-11-25 (as_of in orbit/planfirst.toml)");
}

TEST(ReferenceDayTest, JsonRoundTripKeepsDayOriginAndSetter) {
  const ReferenceDay day{kDay, ReferenceOrigin::kProject, "orbit/planfirst.toml"};

  const Json json = to_json(day);
  const Result<std::optional<ReferenceDay>> read = reference_day_from_json(json, "/as_of");

  EXPECT_EQ(json, Json::parse(R"({"date":"2026-11-25","origin":"project","set_by":"orbit/planfirst.toml"})"));
  ASSERT_TRUE(read) << read.error().describe();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ((*read)->day, kDay);
  EXPECT_EQ((*read)->origin, ReferenceOrigin::kProject);
  EXPECT_EQ((*read)->set_by, "orbit/planfirst.toml");
}

TEST(ReferenceDayTest, NoReferenceDayInTheStateIsNone) {
  const Result<std::optional<ReferenceDay>> read = reference_day_from_json(Json(), "/as_of");

  ASSERT_TRUE(read);
  EXPECT_FALSE(read->has_value());
}

TEST(ReferenceDayTest, AMalformedReferenceDayNamesTheFieldAtFault) {
  const Result<std::optional<ReferenceDay>> text = reference_day_from_json(Json("2026-11-25"), "/as_of");
  const Result<std::optional<ReferenceDay>> date =
      reference_day_from_json(Json{{"date", "25.11.2026"}}, "/as_of");
  const Result<std::optional<ReferenceDay>> origin =
      reference_day_from_json(Json{{"date", "2026-11-25"}, {"origin", "moon"}}, "/as_of");

  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().where, "/as_of");
  ASSERT_FALSE(date);
  EXPECT_EQ(date.error().where, "/as_of/date");
  ASSERT_FALSE(origin);
  EXPECT_EQ(origin.error().where, "/as_of/origin");
}

}  // namespace
}  // namespace planfirst::core
