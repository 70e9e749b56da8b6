#include "pipelines/sqlopt/result_equivalence.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace planfirst::sqlopt {
namespace {

using data::Column;
using data::ColumnType;
using data::QueryResult;
using data::Value;

QueryResult table(std::vector<Value> ids, std::vector<Value> amounts) {
  return QueryResult({Column{"id", ColumnType::kInteger, "BIGINT", std::move(ids)},
                      Column{"amount", ColumnType::kDouble, "DOUBLE", std::move(amounts)}});
}

TEST(ResultEquivalence, IgnoresRowOrderAndNumbersBeyondNineDigits) {
  const QueryResult a = table({1, 2, 3}, {0.1 + 0.2, 10.0, Value()});
  const QueryResult b = table({3, 1, 2}, {Value(), 0.3, 10.0});

  EXPECT_TRUE(compare_results(a, b).equal);
}

TEST(ResultEquivalence, ComparesAsMultisets) {
  const QueryResult a = table({1, 1, 2}, {1.0, 1.0, 2.0});
  const QueryResult b = table({1, 2, 2}, {1.0, 2.0, 2.0});

  const Equivalence result = compare_results(a, b);

  EXPECT_FALSE(result.equal);
  EXPECT_EQ(result.difference, "sorted row 2 differs: 1|1 against 2|2");
}

TEST(ResultEquivalence, ComparesColumnsByPositionAndIntegersWithDoubles) {
  const QueryResult a = table({1}, {5.0});
  const QueryResult b(
      {Column{"x", ColumnType::kDouble, "DOUBLE", {1.0}}, Column{"y", ColumnType::kInteger, "INT", {5}}});

  EXPECT_TRUE(compare_results(a, b).equal);
}

TEST(ResultEquivalence, KeepsNullNanAndBooleansApart) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const QueryResult a({Column{"v", ColumnType::kDouble, "DOUBLE", {nan, Value()}}});
  const QueryResult b({Column{"v", ColumnType::kDouble, "DOUBLE", {Value(), nan}}});
  const QueryResult c({Column{"v", ColumnType::kBoolean, "BOOLEAN", {true, Value()}}});

  EXPECT_TRUE(compare_results(a, b).equal);
  EXPECT_FALSE(compare_results(a, c).equal);
  EXPECT_EQ(canonical_rows(a), (std::vector<std::string>{"NULL", "NaN"}));
}

TEST(ResultEquivalence, CountsRowsAndColumns) {
  EXPECT_EQ(compare_results(table({1}, {1.0}), table({1, 2}, {1.0, 2.0})).difference, "1 rows against 2");
}

}  // namespace
}  // namespace planfirst::sqlopt
