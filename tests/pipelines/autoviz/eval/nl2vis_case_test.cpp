#include "pipelines/autoviz/eval/nl2vis_case.hpp"

#include <gtest/gtest.h>

namespace planfirst::autoviz {
namespace {

constexpr const char* kRecord =
    R"({"id": "v1", "question": "count by rank", "table_csv": "tables/college/faculty.csv", "chart": "bar",
        "x": "rank", "y": "*", "aggregate": "count", "distinct": false, "sort": {"by": "y", "order": "desc"},
        "limit": 3, "filters": "sex = 'F'", "expected": {"rows": [["AsstProf", 2]], "zero_filled": true}})";

TEST(Nl2visRecord, ReadsTheTargetAndResolvesTheTableAgainstTheFolder) {
  core::Result<Nl2visCase> c = parse_nl2vis_record(kRecord, "/data/nl2vis");

  ASSERT_TRUE(c.has_value()) << c.error().describe();
  EXPECT_EQ(c->table_csv, "/data/nl2vis/tables/college/faculty.csv");
  EXPECT_EQ(c->target.aggregate, "count");
  ASSERT_TRUE(c->target.sort.has_value());
  EXPECT_EQ(c->target.sort->by, "y");
  EXPECT_EQ(c->target.limit, 3);
  ASSERT_EQ(c->target.filters.size(), 1u);
  EXPECT_TRUE(c->zero_filled);
}

TEST(Nl2visRecord, FieldsOfTheWrongTypeReadAsAbsentInsteadOfThrowing) {
  std::string record = kRecord;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {R"("distinct": false)", R"("distinct": "yes")"},
           {R"({"by": "y", "order": "desc"})", R"({"by": 3, "order": null})"},
           {R"("limit": 3)", R"("limit": "3")"},
           {R"("zero_filled": true)", R"("zero_filled": "x")"}}) {
    record.replace(record.find(from), from.size(), to);
  }

  core::Result<Nl2visCase> c = parse_nl2vis_record(record, "/data");

  ASSERT_TRUE(c.has_value()) << c.error().describe();
  EXPECT_FALSE(c->target.distinct);
  ASSERT_TRUE(c->target.sort.has_value());
  EXPECT_EQ(c->target.sort->by, "");
  EXPECT_EQ(c->target.sort->order, "asc");
  EXPECT_FALSE(c->target.limit.has_value());
  EXPECT_FALSE(c->zero_filled);
}

TEST(Nl2visRecord, AMissingFieldOrExpectedWithoutRowsIsNamed) {
  core::Result<Nl2visCase> missing = parse_nl2vis_record(R"({"id": "v1"})", "/data");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().where, "question");

  std::string record = kRecord;
  const std::string rows = R"({"rows": [["AsstProf", 2]], "zero_filled": true})";
  record.replace(record.find(rows), rows.size(), R"([1, 2])");
  core::Result<Nl2visCase> bad = parse_nl2vis_record(record, "/data");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().where, "expected");

  EXPECT_FALSE(parse_nl2vis_record("[1, 2]", "/data").has_value());
  EXPECT_FALSE(parse_nl2vis_record("{\"id\": ", "/data").has_value());
}

TEST(Nl2visRecord, TheSplitPutsEveryDatabaseInOneHalfAlternatingInSortedOrder) {
  std::vector<Nl2visCase> cases(5);
  const std::vector<std::string> ids = {"wine", "bike", "wine", "college", "dorm"};
  for (std::size_t i = 0; i < cases.size(); ++i) cases[i].db_id = ids[i];

  const DatabaseSplit split = split_by_database(cases);

  EXPECT_EQ(split.a, (std::vector<std::string>{"bike", "dorm"}));
  EXPECT_EQ(split.b, (std::vector<std::string>{"college", "wine"}));
  EXPECT_EQ(cases[0].half, "B");
  EXPECT_EQ(cases[1].half, "A");
  EXPECT_EQ(cases[2].half, "B");
  EXPECT_EQ(cases[3].half, "B");
  EXPECT_EQ(cases[4].half, "A");
}

}  // namespace
}  // namespace planfirst::autoviz
