#include "pipelines/autoviz/eval/sql_filter.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::autoviz {
namespace {

core::Json atoms_json(std::string_view where) {
  core::Result<std::vector<FilterAtom>> atoms = parse_sql_filter(where);
  EXPECT_TRUE(atoms.has_value()) << atoms.error().describe();
  core::Json out = core::Json::array();
  for (const FilterAtom& atom : atoms.value_or(std::vector<FilterAtom>{})) {
    out.push_back({atom.column, atom.op, atom.value.to_json()});
  }
  return out;
}

TEST(SqlFilter, ReadsConjunctionsOfComparisons) {
  EXPECT_EQ(
      atoms_json(R"(zip_code = 94107 AND EVENTS != "Fog" AND salary <= 8.5)"),
      core::Json::parse(R"([["zip_code", "=", 94107], ["EVENTS", "!=", "Fog"], ["salary", "<=", 8.5]])"));
  EXPECT_EQ(atoms_json("rank <> 'AsstProf'"), core::Json::parse(R"([["rank", "!=", "AsstProf"]])"));
}

TEST(SqlFilter, ReadsBetweenLikeAndIn) {
  EXPECT_EQ(
      atoms_json("customer_id BETWEEN 10 AND 20 and first_name NOT LIKE '%M%'"),
      core::Json::parse(R"([["customer_id", "between", [10, 20]], ["first_name", "not_contains", "M"]])"));
  EXPECT_EQ(atoms_json(R"(address LIKE "%TN%")"), core::Json::parse(R"([["address", "contains", "TN"]])"));
  EXPECT_EQ(atoms_json("code IN ('a', 'b')"), core::Json::parse(R"([["code", "in", ["a", "b"]]])"));
}

TEST(SqlFilter, AnOrOfOneColumnsEqualitiesIsAnInList) {
  EXPECT_EQ(atoms_json("YEAR = 1999 OR YEAR = 2000"), core::Json::parse(R"([["YEAR", "in", [1999, 2000]]])"));
}

TEST(SqlFilter, AnOrOfOneColumnsContainsIsAContainsAnyList) {
  EXPECT_EQ(atoms_json("first_name LIKE '%D%' OR first_name LIKE '%S%'"),
            core::Json::parse(R"([["first_name", "contains", ["D", "S"]]])"));
}

TEST(SqlFilter, AboveOrBelowARangeIsNotBetween) {
  EXPECT_EQ(atoms_json("product_price > 1000 OR product_price < 500"),
            core::Json::parse(R"([["product_price", "not_between", [500, 1000]]])"));
  EXPECT_EQ(atoms_json("p < 2.5 OR p > 7"), core::Json::parse(R"([["p", "not_between", [2.5, 7]]])"));
}

TEST(SqlFilter, RefusesWhatItCannotStateAsAtoms) {
  for (const std::string& where : std::vector<std::string>{
           "price > 500 OR price < 1000", "price >= 1000 OR price < 500", "a > 1 OR a < 'x'",
           "a = 1 OR a LIKE '%x%'", "a = 1 OR a = 2 AND b = 3", "a = 1 OR b = 2", "name LIKE 'A%'",
           "x = ", "(a = 1)", "a = 'open", "lower(a) = 'x'", "a = 1 XOR b = 2", "a = 1.2.3",
           "a > 1" + std::string(400, '9')}) {
    core::Result<std::vector<FilterAtom>> atoms = parse_sql_filter(where);
    ASSERT_FALSE(atoms.has_value()) << where;
    EXPECT_EQ(atoms.error().code, core::ErrorCode::kInvalidArgument) << where;
    EXPECT_NE(atoms.error().message.find("filter"), std::string::npos) << atoms.error().message;
  }
}

}  // namespace
}  // namespace planfirst::autoviz
