#include "pipelines/autoviz/rule_requirement_extractor.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <optional>

#include "contracts/contract_registry.hpp"
#include "data/dataset.hpp"
#include "data/table_profiler.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;

class RuleRequirementExtractorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    test_support::TempDir dir;
    const auto csv = dir.write("sales.csv",
                               "date,region,product_category,revenue,units\n"
                               "2024-01-05,West,Furniture,120.5,3\n2024-02-11,East,Clothing,80,2\n"
                               "2024-03-02,West,Clothing,60,1\n2024-03-20,North,Electronics,300,4\n");
    auto dataset = data::open_dataset(csv);
    ASSERT_TRUE(dataset) << dataset.error().describe();
    auto profile = data::profile_table(*dataset->db, dataset->table);
    ASSERT_TRUE(profile) << profile.error().describe();
    profile_ = std::move(*profile);
  }
  static void TearDownTestSuite() { profile_.reset(); }

  Json extract(const std::string& question) {
    auto extractor = RuleRequirementExtractor::load(core::AssetStore());
    EXPECT_TRUE(extractor) << extractor.error().describe();
    auto requirements = extractor->extract(question, *profile_);
    EXPECT_TRUE(requirements) << requirements.error().describe();
    return requirements ? requirements->requirements.to_json() : Json();
  }

  static std::optional<data::SchemaProfile> profile_;
};
std::optional<data::SchemaProfile> RuleRequirementExtractorTest::profile_;

TEST_F(RuleRequirementExtractorTest, TheSeedWalkthroughGivesTheSeedsRequirements) {
  EXPECT_EQ(extract("get revenue totals by region and product type over time"),
            Json::parse(R"({"metrics": ["revenue"], "group_by": ["region", "product_category"],
                "time": {"column": "date", "grain": "unknown"}, "analysis": ["total", "compare", "trend"],
                "outputs": ["chart", "table"], "constraints": []})"));
}

TEST_F(RuleRequirementExtractorTest, AnExplicitGrainAndANamedValueBecomeTheGrainAndAFilter) {
  const Json requirements = extract("monthly revenue in the West");

  EXPECT_EQ(requirements["time"], Json::parse(R"({"column": "date", "grain": "month"})"));
  EXPECT_EQ(requirements["constraints"],
            Json::parse(R"([{"type": "filter", "column": "region", "op": "=", "value": "West"}])"));
}

TEST_F(RuleRequirementExtractorTest, TopNBecomesASortAndALimitOnTheMetric) {
  const Json requirements = extract("top 3 product categories by units");

  EXPECT_EQ(requirements["constraints"],
            Json::parse(R"([{"type": "sort", "column": "units", "direction": "desc"}, {"type": "limit", "n": 3}])"));
  EXPECT_EQ(requirements["analysis"], Json::parse(R"(["ranking"])"));
}

TEST_F(RuleRequirementExtractorTest, NoAnalysisIsInferredBeyondTheQuestion) {
  const Json requirements = extract("revenue by region as a bar chart");

  EXPECT_EQ(requirements["analysis"], Json::array());
  EXPECT_EQ(requirements["outputs"], Json::parse(R"(["chart"])"));
  EXPECT_EQ(requirements["group_by"], Json::parse(R"(["region"])"));
}

TEST_F(RuleRequirementExtractorTest, EveryResultMeetsTheRequirementsContract) {
  auto contracts = contracts::ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(contracts) << contracts.error().describe();
  const contracts::Contract* contract = contracts->find("requirements");
  ASSERT_NE(contract, nullptr);
  for (const char* question : {"get revenue totals by region and product type over time", "monthly revenue in the West",
                               "top 3 product categories by units", "average units per region"}) {
    const auto report = contract->validate(extract(question));
    EXPECT_TRUE(report.ok()) << question << "\n" << report.describe();
  }
}

TEST_F(RuleRequirementExtractorTest, TheSameQuestionGivesTheSameBytes) {
  EXPECT_EQ(extract("average units per region over time").dump(), extract("average units per region over time").dump());
}

TEST_F(RuleRequirementExtractorTest, AQuestionNamingNoColumnListsTheWordsAndTheColumns) {
  auto extractor = RuleRequirementExtractor::load(core::AssetStore());
  ASSERT_TRUE(extractor);

  auto requirements = extractor->extract("what is the weather tomorrow", *profile_);

  ASSERT_FALSE(requirements);
  EXPECT_EQ(requirements.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(requirements.error().message.find("weather, tomorrow"), std::string::npos) << requirements.error().message;
  EXPECT_NE(requirements.error().message.find("date, region, product_category, revenue, units"), std::string::npos)
      << requirements.error().message;
}

TEST(RuleRequirementExtractor, AWordThatNamesAColumnAsksForNothingElse) {
  test_support::TempDir dir;
  const auto csv = dir.write("faculty.csv", "FacID,Rank,Sex\n1,Professor,F\n2,AsstProf,M\n3,Professor,M\n");
  auto dataset = data::open_dataset(csv);
  ASSERT_TRUE(dataset) << dataset.error().describe();
  auto profile = data::profile_table(*dataset->db, dataset->table);
  ASSERT_TRUE(profile) << profile.error().describe();
  auto extractor = RuleRequirementExtractor::load(core::AssetStore());
  ASSERT_TRUE(extractor);

  auto requirements = extractor->extract("What is the number of faculty members for each rank? Return a pie.", *profile);

  ASSERT_TRUE(requirements) << requirements.error().describe();
  EXPECT_EQ(requirements->requirements.group_by, (std::vector<std::string>{"Rank"}));
  EXPECT_EQ(requirements->requirements.analysis, (std::vector<std::string>{"total", "share"}));  // no "ranking" from the column
}


TEST_F(RuleRequirementExtractorTest, ASortClauseSortsByItsAxisAndNamesNoColumn) {
  const Json by_y = extract("count the orders per region, and sort by the y-axis from high to low");
  const Json by_x = extract("average revenue per region as bars, listed by the names in ascending order");

  EXPECT_EQ(by_y["group_by"], Json::parse(R"(["region"])"));
  EXPECT_EQ(by_y["constraints"], Json::parse(R"([{"type": "sort", "column": "count", "direction": "desc"}])"));
  EXPECT_EQ(by_x["metrics"], Json::parse(R"(["revenue"])"));
  EXPECT_EQ(by_x["constraints"], Json::parse(R"([{"type": "sort", "column": "region", "direction": "asc"}])"));
  EXPECT_EQ(by_x["analysis"], Json::array()) << "the sort clause's words ask for no ranking";
}

TEST_F(RuleRequirementExtractorTest, ARelationshipIsBetweenTheColumnsItNamesInOrder) {
  const Json json = extract("what is the relationship between units and revenue? a scatter chart");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["units", "revenue"])"));
  EXPECT_EQ(json["group_by"], Json::array());
}

TEST_F(RuleRequirementExtractorTest, ACountingQuestionGroupsByANumberAfterBy) {
  EXPECT_EQ(extract("how many orders by units")["group_by"], Json::parse(R"(["units"])"));
  EXPECT_EQ(extract("top 2 regions by units")["metrics"], Json::parse(R"(["units"])"));
}


TEST_F(RuleRequirementExtractorTest, AMeasureComparedWithANumberIsAFilter) {
  EXPECT_EQ(extract("revenue per region where units lower than 3")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "units", "op": "<", "value": 3}])"));
  EXPECT_EQ(extract("count of orders per region with revenue between 50 and 200")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "between", "value": [50, 200]}])"));
}


TEST_F(RuleRequirementExtractorTest, ANumberPastTheIntegerRangeIsNotALimit) {
  const Json json = extract("top 99999999999999999999999 regions by revenue");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["revenue"])"));
  EXPECT_EQ(json["constraints"], Json::array());
}

}  // namespace
}  // namespace planfirst::autoviz
