#include <fmt/format.h>
#include <gmock/gmock.h>

#include "data/table_profiler.hpp"
#include "pipelines/autoviz/tool_fixture.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(ToolTest, TimeBucketTruncatesToTheMonth) {
  load(kSalesCsv);

  std::vector<std::string> bucketed = rows("time_bucket", {{"column", "date"}, {"grain", "month"}});

  EXPECT_THAT(bucketed,
              ElementsAre("2024-01-01|North|A|1|10.5", "2024-01-01|South|B|2|20", "2024-02-01|North|B|3|30",
                          "2024-02-01|South|A|NULL|40", "2024-03-01|North|A|5|50"));
}

TEST_F(ToolTest, ToolsThatKeepRowOrderReadATimeBucketInItsRowOrder) {
  load(kSalesCsv);
  ASSERT_TRUE(run("time_bucket", {{"column", "date"}, {"grain", "month"}}).has_value());

  EXPECT_THAT(rows("handle_missing", {{"columns", {"units"}}, {"strategy", "forward_fill"}}),
              ElementsAre("2024-01-01|North|A|1|10.5", "2024-01-01|South|B|2|20", "2024-02-01|North|B|3|30",
                          "2024-02-01|South|A|3|40", "2024-03-01|North|A|5|50"));
  load(kSalesCsv, "again");
  ASSERT_TRUE(run("time_bucket", {{"column", "date"}, {"grain", "month"}}).has_value());
  EXPECT_THAT(
      rows("sort_limit", {{"by", "date"}, {"limit", 3}}),
      ElementsAre("2024-03-01|North|A|5|50", "2024-02-01|North|B|3|30", "2024-02-01|South|A|NULL|40"));
}

TEST_F(ToolTest, TimeBucketMapsToCycles) {
  load("day,n\n2024-01-01,1\n2024-03-09,2\n");

  EXPECT_THAT(rows("time_bucket", {{"column", "day"}, {"grain", "day_of_week"}}),
              ElementsAre("1-Mon|1", "6-Sat|2"));
  load("day,n\n2024-01-01,1\n2024-03-09,2\n", "again");
  EXPECT_THAT(rows("time_bucket", {{"column", "day"}, {"grain", "month_of_year"}}),
              ElementsAre("01-Jan|1", "03-Mar|2"));
}

TEST_F(ToolTest, TimeBucketAutoPicksTheGrainBySpanAndLogsIt) {
  load("day,n\n2024-01-03,1\n2024-05-30,2\n");  // 148 days: weekly

  EXPECT_THAT(rows("time_bucket", {{"column", "day"}}), ElementsAre("2024-01-01|1", "2024-05-27|2"));
  ASSERT_EQ(ctx_->repairs.size(), 1u);
  EXPECT_EQ(ctx_->repairs[0].after, "week");
  EXPECT_EQ(ctx_->repairs[0].reason, "default param: a span of 148 days");
}

TEST_F(ToolTest, TimeBucketAutoCountsATimestampSpanInCalendarDays) {
  load("at,n\n2024-01-01 23:00:00,1\n2024-03-31 01:00:00,2\n");  // 89 days and 2 hours, across 90 midnights

  core::Result<ToolOutput> output = run("time_bucket", {{"column", "at"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(ctx_->repairs.back().after, "week");
  EXPECT_EQ(ctx_->repairs.back().reason, "default param: a span of 90 days");
}

TEST_F(ToolTest, TimeBucketGoesCoarserPast120Points) {
  std::string csv = "day,n\n";
  for (int year = 2000; year <= 2012; ++year) {
    for (int month = 1; month <= 12; ++month) csv += fmt::format("{}-{:02}-15,1\n", year, month);
  }
  load(csv);  // 156 months: quarterly

  core::Result<ToolOutput> output = run("time_bucket", {{"column", "day"}, {"grain", "auto"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(ctx_->repairs.back().after, "quarter");
  EXPECT_EQ(rows_of(*output->table)[3], "2000-04-01|1");
}

// The profile of the loaded table, handed to the tools as the execute node hands it.
void use_profile(ToolContext& ctx, data::Database& db, const std::string& column) {
  core::Result<data::SchemaProfile> profile = data::profile_table(db, ctx.relation);
  ASSERT_TRUE(profile) << profile.error().describe();
  adopt_profile_spans(ctx, *profile);
  EXPECT_EQ(ctx.profiled_relation, ctx.relation);
  EXPECT_TRUE(ctx.profiled_spans.contains(column));
}

TEST_F(ToolTest, TimeBucketAutoOnTheProfiledTableTakesTheSpanFromTheProfile) {
  load("day,n\n2024-01-03,1\n2024-05-30,2\n");  // 148 days: weekly when scanned
  ctx_->profiled_relation = "sales";
  ctx_->profiled_spans["day"] = data::TemporalSpan{"2024-01-03", "2024-01-20", 17, 2, 0, 0};

  EXPECT_THAT(rows("time_bucket", {{"column", "day"}}), ElementsAre("2024-01-03|1", "2024-05-30|2"));
  EXPECT_EQ(ctx_->repairs.back().after, "day");
  EXPECT_EQ(ctx_->repairs.back().reason, "default param: a span of 17 days");
}

// Stand-in spans that disagree with the table show which one decided: a monthly span of up to
// 120 calendar months is the profile's call (also before 1970); at 121 the table is scanned.
TEST_F(ToolTest, TimeBucketAutoTakesMonthlySpansUpTo120CalendarMonthsFromTheProfile) {
  const auto grain_with_span = [this](const std::string& table, data::TemporalSpan span) {
    load("day,n\n2024-01-03,1\n2024-05-30,2\n", table);  // scanned: 148 days, weekly
    ctx_->profiled_relation = table;
    ctx_->profiled_spans["day"] = std::move(span);
    EXPECT_TRUE(run("time_bucket", {{"column", "day"}}).has_value());
    return ctx_->repairs.back();
  };

  const ToolRepair months_120 = grain_with_span("a", {"2000-01-15", "2009-12-15", 3622, 2, 0, 0});
  const ToolRepair months_119_old =
      grain_with_span("b", {"1830-02-01", "1839-12-31 10:00:00", 3620, 2, 0, 0});
  const ToolRepair months_121 = grain_with_span("c", {"2000-01-15", "2010-01-15", 3653, 2, 0, 0});

  EXPECT_EQ(months_120.after, "month");
  EXPECT_EQ(months_120.reason, "default param: a span of 3622 days");
  EXPECT_EQ(months_119_old.after, "month");
  EXPECT_EQ(months_121.after, "week");
  EXPECT_EQ(months_121.reason, "default param: a span of 148 days");
}

TEST_F(ToolTest, TimeBucketAutoLeavesZonedTimestampsToTheScan) {
  ASSERT_TRUE(db_->exec("SET TimeZone = 'UTC'"));
  ASSERT_TRUE(
      db_->exec("CREATE TABLE zoned AS SELECT TIMESTAMPTZ '2024-01-03 10:00:00+00' + INTERVAL (i) DAY AS at, "
                "1 AS n FROM range(200) t(i)"));
  ctx_->relation = "zoned";
  core::Result<data::SchemaProfile> profile = data::profile_table(*db_, "zoned");
  ASSERT_TRUE(profile) << profile.error().describe();

  adopt_profile_spans(*ctx_, *profile);

  EXPECT_EQ(ctx_->profiled_relation, "zoned");
  EXPECT_TRUE(ctx_->profiled_spans.empty());
  EXPECT_THAT(rows("time_bucket", {{"column", "at"}}), Contains("2024-01-01|1"));  // scanned: weekly
  EXPECT_EQ(ctx_->repairs.back().reason, "default param: a span of 199 days");
}

TEST_F(ToolTest, TimeBucketAutoScansATableThatChangedSinceItWasProfiled) {
  load("day,n\n2024-01-03,1\n2024-01-20,2\n");  // 17 days: daily
  core::Result<data::SchemaProfile> profile = data::profile_table(*db_, "sales");
  ASSERT_TRUE(profile) << profile.error().describe();
  ASSERT_TRUE(db_->exec("INSERT INTO sales VALUES (DATE '2024-05-30', 3)"));  // now 148 days

  adopt_profile_spans(*ctx_, *profile);

  EXPECT_TRUE(ctx_->profiled_spans.empty());
  EXPECT_THAT(rows("time_bucket", {{"column", "day"}}),
              ElementsAre("2024-01-01|1", "2024-01-15|2", "2024-05-27|3"));
  EXPECT_EQ(ctx_->repairs.back().after, "week");
}

TEST_F(ToolTest, TimeBucketAutoIgnoresTheProfileForAnotherRelation) {
  load("day,n\n2024-01-03,1\n2024-05-30,2\n");
  ctx_->profiled_relation = "orders";
  ctx_->profiled_spans["day"] = data::TemporalSpan{"2024-01-03", "2024-01-20", 17, 2, 0, 0};

  EXPECT_THAT(rows("time_bucket", {{"column", "day"}}), ElementsAre("2024-01-01|1", "2024-05-27|2"));
  EXPECT_EQ(ctx_->repairs.back().after, "week");
}

// The grain and its logged reason on the profiled table are the scan's, including spans whose
// calendar exceeds 120 periods (the scan then counts the periods that hold data).
TEST_F(ToolTest, TimeBucketAutoFromTheProfileAgreesWithTheScan) {
  std::string monthly_13_years = "day,n\n";
  for (int year = 2000; year <= 2012; ++year) {
    for (int month = 1; month <= 12; ++month) monthly_13_years += fmt::format("{}-{:02}-15,1\n", year, month);
  }
  const std::vector<std::string> datasets = {
      "day,n\n2024-01-03,1\n2024-05-30,2\n",                   // weekly
      "day,n\n2024-01-01,1\n2024-03-31,2\n",                   // 90 days: weekly
      "day,n\n2024-01-01,1\n2024-03-30,2\n",                   // 89 days: daily
      "day,n\n1838-02-01,1\n1838-09-30,2\n",                   // before 1970: weekly
      "day,n\n2000-01-15,1\n2009-12-15,2\n",                   // 120 calendar months: monthly
      "day,n\n2000-01-15,1\n2010-01-15,2\n",                   // 121 calendar months, 2 with data
      "day,n\n2000-01-01,1\n2012-12-31,2\n2006-06-06,3\n",     // 156 calendar months, 3 with data
      "at,n\n2024-01-01 23:00:00,1\n2024-03-31 01:00:00,2\n",  // a timestamp span of 90 days
      monthly_13_years,                                        // 156 months with data: quarterly
  };
  for (std::size_t i = 0; i < datasets.size(); ++i) {
    const std::string table = "t" + std::to_string(i);
    load(datasets[i], table);
    const std::string column = datasets[i].starts_with("at") ? "at" : "day";
    ASSERT_TRUE(run("time_bucket", {{"column", column}}).has_value());
    const ToolRepair scanned = ctx_->repairs.back();
    ctx_->relation = table;
    use_profile(*ctx_, *db_, column);
    ASSERT_TRUE(run("time_bucket", {{"column", column}}).has_value());
    EXPECT_EQ(ctx_->repairs.back().after, scanned.after) << datasets[i];
    EXPECT_EQ(ctx_->repairs.back().reason, scanned.reason) << datasets[i];
  }
}

TEST_F(ToolTest, TimeBucketRefusesATextColumn) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("time_bucket", {{"column", "region"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message, HasSubstr("run parse_datetime first"));
}

TEST_F(ToolTest, ComparePeriodsGivesTheChangeFromThePreviousPeriod) {
  load(kSalesCsv);

  EXPECT_THAT(rows("compare_periods", {{"date_column", "date"}, {"metric", "revenue"}}),
              ElementsAre("2024-01-01|30.5|NULL|NULL|NULL", "2024-02-01|70|30.5|39.5|129.50819672131146",
                          "2024-03-01|50|70|-20|-28.571428571428573"));
}

// A change of doubles was their difference as doubles (-1444.3899999998976 for 1358154.28 -
// 1359598.67): it is exact to 10 places, as the sums are (0.1 + 0.2 is 0.3).
TEST_F(ToolTest, ComparePeriodsGivesExactChangesOfDoubles) {
  load("date,revenue\n2023-01-15,1359598.67\n2023-02-15,1358154.28\n2023-03-15,0.1\n2023-03-20,0.2\n");

  EXPECT_THAT(rows("compare_periods", {{"date_column", "date"}, {"metric", "revenue"}}),
              ElementsAre("2023-01-01|1359598.67|NULL|NULL|NULL",
                          "2023-02-01|1358154.28|1359598.67|-1444.39|-0.10623649698038448",
                          "2023-03-01|0.3|1358154.28|-1358153.98|-99.99997791119871"));
}

TEST_F(ToolTest, ComparePeriodsPerGroup) {
  load(kSalesCsv);

  EXPECT_THAT(
      rows("compare_periods",
           {{"date_column", "date"}, {"metric", "units"}, {"grain", "year"}, {"group_by", {"region"}}}),
      ElementsAre("North|2024-01-01|9|NULL|NULL|NULL", "South|2024-01-01|2|NULL|NULL|NULL"));
}

TEST_F(ToolTest, ComparePeriodsRefusesATextMetric) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("compare_periods", {{"date_column", "date"}, {"metric", "product"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "compare_periods.metric");
}

TEST_F(ToolTest, RollingAverageAveragesTheLastRows) {
  load("day,v\n2024-01-03,30\n2024-01-01,10\n2024-01-02,20\n");

  EXPECT_THAT(rows("rolling_average", {{"date_column", "day"}, {"metric", "v"}, {"window", 2}}),
              ElementsAre("2024-01-01|10|10", "2024-01-02|20|15", "2024-01-03|30|25"));
}

TEST_F(ToolTest, RollingAverageRefusesAWindowOfOne) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("rolling_average", {{"date_column", "date"}, {"metric", "revenue"}, {"window", 1}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "rolling_average.window");
}

}  // namespace
}  // namespace planfirst::autoviz
