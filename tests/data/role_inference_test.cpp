#include "data/role_inference.hpp"

#include <gtest/gtest.h>

namespace planfirst::data {
namespace {

ColumnStats numbers(std::string name, ColumnType type, std::int64_t rows, std::int64_t distinct, double min,
                    double max) {
  ColumnStats stats;
  stats.name = std::move(name);
  stats.type = type;
  stats.row_count = rows;
  stats.non_null_count = rows;
  stats.distinct_count = distinct;
  stats.min_number = min;
  stats.max_number = max;
  return stats;
}

ColumnStats text(std::string name, std::int64_t rows, std::int64_t distinct, double average_chars,
                 double average_words) {
  ColumnStats stats;
  stats.name = std::move(name);
  stats.type = ColumnType::kText;
  stats.row_count = rows;
  stats.non_null_count = rows;
  stats.distinct_count = distinct;
  stats.total_chars = static_cast<std::int64_t>(average_chars * static_cast<double>(rows));
  stats.total_words = static_cast<std::int64_t>(average_words * static_cast<double>(rows));
  return stats;
}

TEST(InferRole, IdNamedIntegersAreIdentifiersEvenWhenTheyRepeat) {
  EXPECT_EQ(infer_role(numbers("customer_id", ColumnType::kInteger, 1000, 600, 1, 900)),
            ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("CustomerId", ColumnType::kInteger, 1000, 1000, 1, 5000)),
            ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("order_no", ColumnType::kInteger, 10, 10, 1, 10)), ColumnRole::kIdentifier);
}

TEST(InferRole, PhoneFaxAndPostalNumbersAreIdentifiersNotMeasures) {
  EXPECT_EQ(infer_role(numbers("Phone", ColumnType::kInteger, 58, 51, 1035, 9373)), ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("STU_PHONE", ColumnType::kInteger, 8, 8, 2135, 4894)),
            ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("fax", ColumnType::kInteger, 30, 30, 5550100, 5559999)),
            ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("zip", ColumnType::kInteger, 300, 120, 10001, 99950)),
            ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("postcode", ColumnType::kInteger, 300, 200, 1000, 9999)),
            ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("phones_sold", ColumnType::kInteger, 300, 200, 0, 90)), ColumnRole::kMeasure);
}

TEST(InferRole, IdNamedColumnsWithFewRepeatedValuesAreCategorical) {
  EXPECT_EQ(infer_role(numbers("region_code", ColumnType::kInteger, 1000, 4, 1, 4)),
            ColumnRole::kCategorical);
}

TEST(InferRole, WordsThatMerelyEndInIdAreNotIdentifiers) {
  EXPECT_EQ(infer_role(numbers("paid", ColumnType::kDouble, 1000, 700, 0, 99)), ColumnRole::kMeasure);
}

TEST(InferRole, ConsecutiveUniqueIntegersAreRowNumbers) {
  EXPECT_EQ(infer_role(numbers("n", ColumnType::kInteger, 500, 500, 1, 500)), ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(numbers("amount", ColumnType::kInteger, 500, 500, 1, 9000)), ColumnRole::kMeasure);
}

TEST(InferRole, NumbersWithManyValuesAreMeasures) {
  EXPECT_EQ(infer_role(numbers("revenue", ColumnType::kDouble, 1000, 950, 1.5, 9000)), ColumnRole::kMeasure);
  EXPECT_EQ(infer_role(numbers("units", ColumnType::kInteger, 1000, 5, 1, 5)), ColumnRole::kMeasure);
}

TEST(InferRole, SmallOrdinalIntegersAreCategorical) {
  EXPECT_EQ(infer_role(numbers("rating", ColumnType::kInteger, 1000, 5, 1, 5)), ColumnRole::kCategorical);
  EXPECT_EQ(infer_role(numbers("fiscal_quarter", ColumnType::kInteger, 1000, 4, 1, 4)),
            ColumnRole::kCategorical);
}

TEST(InferRole, YearNamedIntegersInRangeAreTemporal) {
  EXPECT_EQ(infer_role(numbers("year", ColumnType::kInteger, 1000, 6, 2019, 2024)), ColumnRole::kTemporal);
  EXPECT_EQ(infer_role(numbers("order_year", ColumnType::kInteger, 1000, 6, 2019, 2024)),
            ColumnRole::kTemporal);
  EXPECT_EQ(infer_role(numbers("years_of_service", ColumnType::kInteger, 1000, 30, 0, 40)),
            ColumnRole::kMeasure);
  EXPECT_EQ(infer_role(numbers("Open_Date", ColumnType::kInteger, 9, 9, 1830, 1844)), ColumnRole::kTemporal);
  EXPECT_EQ(infer_role(numbers("date_offset", ColumnType::kInteger, 1000, 30, 1, 40)), ColumnRole::kMeasure);
}

TEST(InferRole, ZeroOneIntegersAndYesNoTextAreBoolean) {
  ColumnStats yes_no = text("subscribed", 100, 2, 2.5, 1);
  yes_no.boolean_like_count = 100;

  EXPECT_EQ(infer_role(numbers("churned", ColumnType::kInteger, 100, 2, 0, 1)), ColumnRole::kBoolean);
  EXPECT_EQ(infer_role(yes_no), ColumnRole::kBoolean);
}

TEST(InferRole, DateLikeTextIsTemporal) {
  ColumnStats dates = text("order_date", 100, 40, 10, 1);
  dates.date_like_count = 96;
  ColumnStats mostly_not = text("ref", 100, 40, 10, 1);
  mostly_not.date_like_count = 50;

  EXPECT_EQ(infer_role(dates), ColumnRole::kTemporal);
  EXPECT_NE(infer_role(mostly_not), ColumnRole::kTemporal);
}

TEST(InferRole, LongVariedTextIsText) {
  EXPECT_EQ(infer_role(text("notes", 100, 90, 48, 8)), ColumnRole::kText);
  EXPECT_EQ(infer_role(text("status_message", 10000, 3, 40, 6)), ColumnRole::kCategorical);
}

TEST(InferRole, RepeatedShortTextIsCategorical) {
  EXPECT_EQ(infer_role(text("region", 1000, 5, 5, 1)), ColumnRole::kCategorical);
  EXPECT_EQ(infer_role(text("city", 10000, 800, 8, 1.1)), ColumnRole::kCategorical);
}

TEST(InferRole, UniqueSingleTokensAreIdentifiers) {
  EXPECT_EQ(infer_role(text("tracking", 1000, 1000, 12, 1)), ColumnRole::kIdentifier);
  EXPECT_EQ(infer_role(text("full_name", 1000, 990, 13, 2)), ColumnRole::kCategorical);
}

TEST(InferRole, DateAndBooleanTypesDecideAlone) {
  ColumnStats day;
  day.type = ColumnType::kDate;
  ColumnStats flag;
  flag.type = ColumnType::kBoolean;

  EXPECT_EQ(infer_role(day), ColumnRole::kTemporal);
  EXPECT_EQ(infer_role(flag), ColumnRole::kBoolean);
}

}  // namespace
}  // namespace planfirst::data
