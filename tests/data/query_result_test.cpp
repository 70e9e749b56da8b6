#include "data/query_result.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

namespace planfirst::data {
namespace {

QueryResult two_rows() {
  return QueryResult({Column{"id", ColumnType::kInteger, "BIGINT", {Value(1), Value(2)}},
                      Column{"name", ColumnType::kText, "VARCHAR", {Value("a"), Value()}},
                      Column{"score",
                             ColumnType::kDouble,
                             "DOUBLE",
                             {Value(0.5), Value(std::numeric_limits<double>::quiet_NaN())}}});
}

TEST(QueryResult, CountsRowsAndColumnsAndFindsColumnsByName) {
  const QueryResult result = two_rows();

  const Column* name = result.find_column("name");

  EXPECT_EQ(result.row_count(), 2u);
  EXPECT_EQ(result.column_count(), 3u);
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->type, ColumnType::kText);
  EXPECT_EQ(result.find_column("missing"), nullptr);
  EXPECT_EQ(result.at(1, 0), Value(2));
}

TEST(QueryResult, ToJsonProducesOneObjectPerRowWithNullsForMissingValues) {
  const QueryResult result = two_rows();

  const core::Json json = result.to_json();

  EXPECT_EQ(json.dump(), R"([{"id":1,"name":"a","score":0.5},{"id":2,"name":null,"score":null}])");
}

TEST(QueryResult, EmptyResultHasNoRows) {
  const QueryResult result;

  EXPECT_EQ(result.row_count(), 0u);
  EXPECT_EQ(result.to_json().dump(), "[]");
}

TEST(QueryResult, FromJsonReadsBackWhatColumnsJsonAndToJsonWrote) {
  const QueryResult result = two_rows();

  core::Result<QueryResult> back = QueryResult::from_json(result.columns_json(), result.to_json());

  ASSERT_TRUE(back.has_value()) << back.error().describe();
  EXPECT_EQ(back->columns_json(), result.columns_json());
  EXPECT_EQ(back->at(1, 0), Value(2));
  EXPECT_EQ(back->at(0, 1), Value("a"));
  EXPECT_TRUE(back->at(1, 1).is_null());
  EXPECT_EQ(back->at(0, 2), Value(0.5));
  EXPECT_TRUE(back->at(1, 2).is_null());  // NaN was written as null
}

TEST(QueryResult, FromJsonNamesTheCellThatIsNotAScalar) {
  const core::Json columns = core::Json::parse(R"([{"name": "id", "type": "integer"}])");

  core::Result<QueryResult> back =
      QueryResult::from_json(columns, core::Json::parse(R"([{"id": 1}, {"id": [2]}])"));

  ASSERT_FALSE(back.has_value());
  EXPECT_EQ(back.error().where, "/rows/1/id");
}

TEST(ColumnType, NamesAreTheLowerCaseWords) {
  EXPECT_EQ(to_string(ColumnType::kBoolean), "boolean");
  EXPECT_EQ(to_string(ColumnType::kTimestamp), "timestamp");
  EXPECT_EQ(to_string(ColumnType::kOther), "other");
  EXPECT_EQ(parse_column_type("timestamp"), ColumnType::kTimestamp);
  EXPECT_EQ(parse_column_type("decimal"), ColumnType::kOther);
}

}  // namespace
}  // namespace planfirst::data
