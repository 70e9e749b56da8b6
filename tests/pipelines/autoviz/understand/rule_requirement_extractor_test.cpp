#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>

#include "contracts/contract_registry.hpp"
#include "core/wordnet_synonyms.hpp"
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

  core::Result<ExtractedRequirements> extract_result(const std::string& question) {
    auto extractor = RuleRequirementExtractor::load(core::AssetStore());
    EXPECT_TRUE(extractor) << extractor.error().describe();
    if (!extractor) return extractor.error();
    return extractor->extract(question, *profile_);
  }

  Json extract(const std::string& question) {
    auto requirements = extract_result(question);
    EXPECT_TRUE(requirements) << requirements.error().describe();
    return requirements ? requirements->requirements.to_json() : Json();
  }

  static std::optional<data::SchemaProfile> profile_;
};
std::optional<data::SchemaProfile> RuleRequirementExtractorTest::profile_;

// The extraction of `question` over a table `file` holding `csv`.
core::Result<ExtractedRequirements> extract_from(const std::string& file, const std::string& csv,
                                                 const std::string& question) {
  test_support::TempDir dir;
  auto dataset = data::open_dataset(dir.write(file, csv));
  EXPECT_TRUE(dataset) << dataset.error().describe();
  if (!dataset) return dataset.error();
  auto profile = data::profile_table(*dataset->db, dataset->table);
  EXPECT_TRUE(profile) << profile.error().describe();
  if (!profile) return profile.error();
  auto extractor = RuleRequirementExtractor::load(core::AssetStore());
  EXPECT_TRUE(extractor) << extractor.error().describe();
  if (!extractor) return extractor.error();
  return extractor->extract(question, *profile);
}

// The requirements of `question` over a table `file` holding `csv`.
Json requirements_from(const std::string& file, const std::string& csv, const std::string& question) {
  auto requirements = extract_from(file, csv, question);
  EXPECT_TRUE(requirements) << requirements.error().describe();
  return requirements ? requirements->requirements.to_json() : Json();
}


// The constraints of a sort on `column` in `direction`, then a limit of `n` rows when `n` > 0.
Json sorted_on(const std::string& column, const std::string& direction, int n = 0) {
  Json constraints = Json::array({Json{{"type", "sort"}, {"column", column}, {"direction", direction}}});
  if (n > 0) constraints.push_back(Json{{"type", "limit"}, {"n", n}});
  return constraints;
}

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

TEST_F(RuleRequirementExtractorTest, TheHighestMetricForEachGroupIsNoRanking) {
  EXPECT_EQ(extract("the highest revenue for each region")["analysis"], Json::array()) << "each region's maximum";
  EXPECT_EQ(extract("the top revenue for each region")["analysis"], Json::parse(R"(["ranking"])"))
      << "top aggregates nothing: it still ranks";
  EXPECT_EQ(extract("the region with the highest revenue")["analysis"], Json::parse(R"(["ranking"])"));
  EXPECT_EQ(extract("the top 2 revenue for each region")["constraints"],
            Json::parse(R"([{"type": "sort", "column": "revenue", "direction": "desc"}, {"type": "limit", "n": 2}])"));
}

TEST_F(RuleRequirementExtractorTest, ACountBeforeTheRankingWordOrItsKeysIsTheLimit) {
  const Json top3 = sorted_on("revenue", "desc", 3);
  EXPECT_EQ(extract("the 3 largest regions by revenue")["constraints"], top3);
  EXPECT_EQ(extract("largest 3 regions by revenue")["constraints"], top3);
  EXPECT_EQ(extract("the three biggest regions by revenue")["constraints"], top3) << "a count written out";
  EXPECT_EQ(extract("the 3 regions with the highest revenue")["constraints"], top3) << "a count before the ranked key";
  EXPECT_EQ(extract("the 3 regions with the highest revenue")["analysis"], Json::parse(R"(["ranking"])"));
  EXPECT_EQ(extract("the top ten product categories by units")["constraints"],
            sorted_on("units", "desc", 10));
}

TEST_F(RuleRequirementExtractorTest, ARankingWordAfterItsKeySortsInItsDirection) {
  EXPECT_EQ(extract("which regions have the lowest average revenue")["constraints"],
            sorted_on("revenue", "asc"))
      << "keys in the plural: all of them, sorted";
  EXPECT_EQ(extract("which region has the lowest average revenue")["constraints"],
            sorted_on("revenue", "asc", 1))
      << "a key in the singular: the first";
  EXPECT_EQ(extract("which region has the most sales")["constraints"],
            sorted_on("count", "desc", 1))
      << "the table's rows per region";
  EXPECT_EQ(extract("which months had the biggest revenue")["constraints"], sorted_on("revenue", "desc"));
  EXPECT_EQ(extract("average revenue per product category, highest first")["constraints"], sorted_on("revenue", "desc"))
      << "an order for each category";
  EXPECT_EQ(extract("number of orders by region, most first")["constraints"], sorted_on("count", "desc"));
  const Json months = extract("which month had the biggest revenue");
  EXPECT_EQ(months["constraints"], sorted_on("revenue", "desc", 1))
      << "the months, by their revenue: the first";
  EXPECT_EQ(months["analysis"], Json::parse(R"(["ranking"])"));
  EXPECT_EQ(months["time"], Json::parse(R"({"column": "date", "grain": "month"})"));
  EXPECT_EQ(extract("the highest revenue for each region")["constraints"], Json::array()) << "each region's maximum";
  EXPECT_EQ(extract("the highest revenue")["constraints"], Json::array()) << "one maximum";
  EXPECT_EQ(requirements_from("flight.csv", "flno,origin,price\n1,Paris,100.5\n2,Rome,300.25\n",
                              "Which flight has the highest price?")["constraints"],
            sorted_on("price", "desc", 1))
      << "the table's rows, ranked: that one row";
}

// "which region has the highest revenue" listed region among the metrics, beside revenue; the
// plan grouped by it all the same, and the requirements now say so.
TEST_F(RuleRequirementExtractorTest, TheCategoryAWhichQuestionRanksIsGroupedByNotAMetric) {
  for (const std::string question : {"which region has the highest revenue", "what region had the most revenue in 2024"}) {
    const Json requirements = extract(question);
    EXPECT_EQ(requirements["group_by"], Json::parse(R"(["region"])")) << question;
    EXPECT_EQ(requirements["metrics"], Json::parse(R"(["revenue"])")) << question;
  }
  const Json east = extract("which product category has the highest revenue in the East");
  EXPECT_EQ(east["group_by"], Json::parse(R"(["product_category"])"));
  EXPECT_EQ(east["metrics"], Json::parse(R"(["revenue"])"));
  EXPECT_EQ(extract("which region has the highest revenue")["constraints"], sorted_on("revenue", "desc", 1));
  EXPECT_EQ(extract("revenue and region with the highest revenue")["group_by"], Json::array())
      << "no asking word before the category";
}

TEST_F(RuleRequirementExtractorTest, AChangePeriodOverPeriodIsAComparisonAtThatGrain) {
  const Json requirements = extract("how did revenue change month over month");
  EXPECT_EQ(requirements["analysis"], Json::parse(R"(["compare"])"));
  EXPECT_EQ(requirements["time"], Json::parse(R"({"column": "date", "grain": "month"})"));
  EXPECT_EQ(extract("units by region year over year")["time"], Json::parse(R"({"column": "date", "grain": "year"})"));
}

// "revenue per unit by product category" grouped by units and product_category: a measure per a
// measure beside another key is a ratio, which no step computes, so the question is refused.
TEST_F(RuleRequirementExtractorTest, AMeasurePerAMeasureBesideAKeyIsARatioAndRefused) {
  for (const std::string question : {"revenue per unit by product category", "monthly revenue per unit"}) {
    const core::Result<ExtractedRequirements> result = extract_result(question);
    ASSERT_FALSE(result.has_value()) << question;
    EXPECT_EQ(result.error().message,
              "the question asks for 'revenue per unit', a ratio of revenue to units, which no plan step computes; "
              "ask for revenue and units side by side, or for the average revenue")
        << question;
  }
  EXPECT_EQ(extract("monthly revenue per region")["group_by"], Json::parse(R"(["region"])"))
      << "a measure per a category groups by it";
}

TEST_F(RuleRequirementExtractorTest, ATopKCountNamesNoValue) {
  std::string csv = "player_id,name,club_id,tries\n";  // club_id: a category of 1 to 5
  for (int i = 1; i <= 30; ++i) csv += std::to_string(i) + ",P" + std::to_string(i) + "," + std::to_string(i % 5 + 1) + "," + std::to_string(i % 9) + "\n";
  const Json constraints = requirements_from("player.csv", csv, "List the top 5 players by tries")["constraints"];
  EXPECT_EQ(constraints, sorted_on("tries", "desc", 5))
      << "no club_id = 5";
}

TEST_F(RuleRequirementExtractorTest, CountingTheTablesRowsNamesNoColumnAndIsNoRefusal) {
  const std::string csv = "order_id,region,revenue\n1,West,10\n2,East,20\n3,West,30\n";
  for (const char* question : {"How many orders are there?", "How many rows are there?", "How many records are there?"}) {
    const Json json = requirements_from("sales.csv", csv, question);
    EXPECT_EQ(json["metrics"], Json::array()) << question;
    EXPECT_EQ(json["group_by"], Json::array()) << question;
    EXPECT_EQ(json["outputs"], Json::parse(R"(["table"])")) << question << ": one count";
  }
  test_support::TempDir dir;
  auto dataset = data::open_dataset(dir.write("sales.csv", csv));
  ASSERT_TRUE(dataset);
  auto profile = data::profile_table(*dataset->db, dataset->table);
  auto extractor = RuleRequirementExtractor::load(core::AssetStore());
  ASSERT_TRUE(profile && extractor);
  auto cats = extractor->extract("How many cats are there?", *profile);
  ASSERT_FALSE(cats.has_value()) << "a word that names no rows is still not understood";
  EXPECT_NE(cats.error().message.find("words not understood: cats"), std::string::npos) << cats.error().message;
  auto ways = extractor->extract("Show the different ways to ship orders and the number of orders", *profile);
  ASSERT_FALSE(ways.has_value()) << "it counts orders per something it does not name";
  EXPECT_NE(ways.error().message.find("different, ways, ship"), std::string::npos) << ways.error().message;
}

TEST_F(RuleRequirementExtractorTest, AtLeastComparesItDoesNotRank) {
  // "earning" names no column, so the comparison keeps no rows and its words stay in the question.
  const Json constraints = extract("revenue by region for people earning at least 10000")["constraints"];
  EXPECT_FALSE(std::any_of(constraints.begin(), constraints.end(), [](const Json& c) { return c["type"] == "limit"; }))
      << constraints.dump();
}

TEST_F(RuleRequirementExtractorTest, SortPhrasesFromMostToLeastOrderTheAmounts) {
  EXPECT_EQ(extract("units per region, sorted from most to least")["constraints"],
            sorted_on("units", "desc"));
  EXPECT_EQ(extract("Show total revenue by region from highest to lowest")["constraints"],
            sorted_on("revenue", "desc"))
      << "a display verb does not reach across the grouping's 'by'";
  const Json counted = extract("Show number of sales by region from most to least");
  EXPECT_EQ(counted["group_by"], Json::parse(R"(["region"])"));
  EXPECT_EQ(counted["constraints"], sorted_on("count", "desc"));
  EXPECT_EQ(extract("arrange the regions by revenue in descending order")["constraints"],
            sorted_on("revenue", "desc"))
      << "a plain sort verb's 'by' names the sort key";
  EXPECT_EQ(extract("the largest single sale, order by revenue")["constraints"],
            sorted_on("revenue", "desc", 1))
      << "a sort with no direction word takes the ranking word's; the one row asked for";
  EXPECT_EQ(extract("Show number of sales per region, from highest to lowest")["group_by"], Json::parse(R"(["region"])"));
  EXPECT_EQ(extract("units per region, sorted from lowest to highest")["constraints"],
            sorted_on("units", "asc"));
}

TEST_F(RuleRequirementExtractorTest, HowManyDistinctValuesCountsTheColumnUnlessAChartIsAsked) {
  const Json one = extract("How many distinct product categories are there?");
  EXPECT_EQ(one["metrics"], Json::parse(R"(["product_category"])"));
  EXPECT_EQ(one["group_by"], Json::array());
  EXPECT_EQ(one["outputs"], Json::parse(R"(["table"])")) << "one number";
  const Json per_key = extract("the number of unique product categories in each region");
  EXPECT_EQ(per_key["metrics"], Json::parse(R"(["product_category"])"));
  EXPECT_EQ(per_key["group_by"], Json::parse(R"(["region"])"));
  EXPECT_EQ(extract("a bar chart of the number of different regions")["group_by"], Json::parse(R"(["region"])"))
      << "a bar per region";
}

TEST_F(RuleRequirementExtractorTest, TheColumnAfterOrderByIsTheSortKey) {
  EXPECT_EQ(extract("the region and revenue of each sale, listed in descending order by revenue")["constraints"],
            Json::parse(R"([{"type": "sort", "column": "revenue", "direction": "desc"}])"));
}

TEST_F(RuleRequirementExtractorTest, ASortClauseEndsWithItsSentence) {
  const Json json = extract("List the revenue and units in descending order of revenue. Show a scatter chart.");

  EXPECT_EQ(json["outputs"], Json::parse(R"(["chart", "table"])")) << "the chart is asked for after the sort clause";
  EXPECT_EQ(json["analysis"], Json::parse(R"(["correlation"])"));
  EXPECT_EQ(json["constraints"], Json::parse(R"([{"type": "sort", "column": "revenue", "direction": "desc"}])"));
}

TEST_F(RuleRequirementExtractorTest, APeriodBeforeTheLatestDateIsAFilterNotAGrain) {
  const Json last_year = extract("the top 2 regions by revenue last year");
  const Json trailing = extract("daily revenue over the last 30 days");

  EXPECT_EQ(last_year["time"], Json::parse(R"({"column": null, "grain": "unknown"})")) << "no year grain";
  EXPECT_EQ(last_year["constraints"][0], Json::parse(R"({"type": "filter", "column": "date", "op": ">=", "value": "2023-01-01"})"));
  EXPECT_EQ(last_year["constraints"][1], Json::parse(R"({"type": "filter", "column": "date", "op": "<", "value": "2024-01-01"})"));
  EXPECT_EQ(trailing["time"], Json::parse(R"({"column": "date", "grain": "day"})"));
  EXPECT_EQ(trailing["constraints"][0]["value"], "2024-02-20") << "30 days up to 2024-03-20, the latest date";
  EXPECT_EQ(trailing["constraints"][1]["value"], "2024-03-21");
}

TEST_F(RuleRequirementExtractorTest, AMeasureOverAPeriodIsOneTotal) {
  const Json json = extract("what was the revenue this year?");

  EXPECT_EQ(json["analysis"], Json::parse(R"(["total"])"));
  EXPECT_EQ(json["outputs"], Json::parse(R"(["table"])"));
  EXPECT_EQ(extract("how much revenue came from the West region?")["outputs"], Json::parse(R"(["table"])"));
}

TEST_F(RuleRequirementExtractorTest, APeriodKeepsRowsOnlyWhenItIsTheOnlyOne) {
  const Json counted = extract("how many sales were made on a date this year?");
  const Json beside_year = extract("revenue by month in 2024 compared with last year");
  const Json two = extract("revenue this year versus last year");

  EXPECT_EQ(counted["group_by"], Json::array()) << "the date is filtered, not drawn";
  EXPECT_EQ(counted["time"]["column"], nullptr);
  EXPECT_EQ(counted["constraints"].size(), 2u);
  EXPECT_EQ(beside_year["constraints"][0]["value"], "2024-01-01") << "the named year only";
  EXPECT_EQ(beside_year["constraints"].size(), 2u);
  EXPECT_EQ(two["constraints"], Json::array()) << "two periods compare; neither keeps rows";
  EXPECT_EQ(extract("compare revenue this year with last year")["constraints"], Json::array());
  EXPECT_EQ(extract("units sold in the last week of each month last year")["constraints"][0]["value"], "2023-01-01")
      << "the last week of each month is a part of months, not a second period";
  EXPECT_EQ(extract("the revenue in the last quarter of 2024 compared with last year")["constraints"], Json::array())
      << "compared: neither side keeps rows";
  EXPECT_EQ(extract("the revenue this year of the West region compared with last year")["constraints"].size(), 1u)
      << "'this year of the West region' is no part of a period; only the region filter";
  EXPECT_EQ(extract("the total revenue in the last month with units above 2")["constraints"].size(), 3u)
      << "the units filter and the month's two";
  EXPECT_EQ(extract("the sales in the past week with revenue over 100")["constraints"].size(), 3u)
      << "the revenue filter and the week's two";
}

TEST(RuleRequirementExtractor, AOneLetterUnitAtTheEndOfAColumnNameMayBeLeftOut) {
  const std::string weather = "date,max_temperature_f,mean_temperature_f\n2024-01-01,50,40\n2024-01-02,55,45\n";

  EXPECT_EQ(requirements_from("weather.csv", weather, "Show the max temperature trend")["metrics"],
            Json::parse(R"(["max_temperature_f"])"));
  EXPECT_EQ(requirements_from("weather.csv", weather, "Show the mean temperature f by date")["metrics"],
            Json::parse(R"(["mean_temperature_f"])"));
}

TEST_F(RuleRequirementExtractorTest, OneNumberForAnswerIsATableUnlessAChartIsAsked) {
  EXPECT_EQ(extract("how many sales were made in the West region?")["outputs"], Json::parse(R"(["table"])"));
  EXPECT_EQ(extract("the total revenue")["outputs"], Json::parse(R"(["table"])"));
  EXPECT_EQ(extract("the total revenue as a bar chart")["outputs"], Json::parse(R"(["chart"])"));
  EXPECT_EQ(extract("the total revenue by region")["outputs"], Json::parse(R"(["chart", "table"])"));
}

TEST_F(RuleRequirementExtractorTest, AQuestionThatOnlyKeepsRowsListsThem) {
  const Json listed = extract("list all sales in the West region");
  const Json counted = extract("how many sales were made in the West region?");

  EXPECT_EQ(listed["metrics"], Json::array());
  EXPECT_EQ(listed["outputs"], Json::parse(R"(["table"])")) << "the rows kept, as a table";
  EXPECT_EQ(counted["outputs"], Json::parse(R"(["table"])")) << "one number";
  EXPECT_EQ(counted["analysis"], Json::parse(R"(["total"])"));
}

TEST_F(RuleRequirementExtractorTest, TheColumnASortClauseOrdersByIsNoGroup) {
  const Json json =
      extract("What are the product categories and units of each region, listed in descending order by units using a bar chart.");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["units"])"));
  EXPECT_EQ(json["group_by"], Json::parse(R"(["product_category", "region"])")) << "units is sorted by, not grouped by";
  EXPECT_EQ(json["constraints"], Json::parse(R"([{"type": "sort", "column": "units", "direction": "desc"}])"));
  EXPECT_EQ(extract("List regions by revenue in descending order")["group_by"], Json::parse(R"(["region"])"))
      << "a 'by' before the direction still groups";
  EXPECT_EQ(extract("Show total revenue by region, and sort the result by revenue in descending order")["group_by"],
            Json::parse(R"(["region"])"))
      << "'the result' stands between the verb and its 'by'";
  EXPECT_EQ(extract("show the sales by region in descending order of revenue")["group_by"], Json::parse(R"(["region"])"))
      << "show is no plain sort verb: its 'by' groups";
}

TEST_F(RuleRequirementExtractorTest, AQuestionThatIsNotUtf8IsRefusedNamingTheByte) {
  auto extractor = RuleRequirementExtractor::load(core::AssetStore());
  ASSERT_TRUE(extractor) << extractor.error().describe();

  auto requirements = extractor->extract("revenue where region is 'We\xffst'", *profile_);

  ASSERT_FALSE(requirements);
  EXPECT_EQ(requirements.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(requirements.error().message.find("not valid UTF-8 at byte 27 (counting from 0)"), std::string::npos)
      << requirements.error().message;
}

TEST_F(RuleRequirementExtractorTest, ATendencyIsATrend) {
  EXPECT_EQ(extract("give me a tendency of the revenue per region")["analysis"], Json::parse(R"(["trend"])"));
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

TEST(RuleRequirementExtractor, AMeasureByAKeyOfOneRowEachIsDrawnPerRow) {
  const std::string flights = "name,carrier,distance\nA1,Air,120.5\nB2,Air,300\nC3,Sky,80\n";

  const Json by_name = requirements_from("flights.csv", flights, "Show me distance by name in a bar chart");
  const Json by_carrier = requirements_from("flights.csv", flights, "Show me distance by carrier in a bar chart");
  const Json total_by_name = requirements_from("flights.csv", flights, "Show me the total distance by name in a bar chart");

  EXPECT_EQ(by_name["metrics"], Json::parse(R"(["name", "distance"])"));
  EXPECT_EQ(by_name["group_by"], Json::array());
  EXPECT_EQ(by_carrier["group_by"], Json::parse(R"(["carrier"])")) << "carriers repeat: a real group";
  EXPECT_EQ(total_by_name["group_by"], Json::parse(R"(["name"])")) << "a total asked for aggregates";
}

TEST(RuleRequirementExtractor, HowOldOrHowHeavyAsksForTheAgeOrWeightOfEachRow) {
  const std::string dogs = "dog_id,name,age,weight\n1,Kacey,6,7.5\n2,Hipolito,9,1.7\n3,Mavis,8,8.0\n";

  EXPECT_EQ(requirements_from("dogs.csv", dogs, "How old is each dog? Show in a bar chart.")["metrics"],
            Json::parse(R"(["name", "age"])"));
  EXPECT_EQ(requirements_from("dogs.csv", dogs, "How heavy is each dog?")["metrics"], Json::parse(R"(["name", "weight"])"));
}

TEST(RuleRequirementExtractor, ACountInAColumnNameAsksForNoCount) {
  const Json json = requirements_from("station.csv", "name,city,dock_count\nA,San Francisco,15\nB,San Jose,19\nC,San Francisco,11\n",
                                      "What's the dock count of each station in San Francisco?");

  EXPECT_EQ(json["outputs"], Json::parse(R"(["chart", "table"])")) << "not one number";
}

TEST(RuleRequirementExtractor, AChartWordNamesNoColumnThroughWordNet) {
  test_support::TempDir dir;
  const auto csv = dir.write("sales.csv", "date,channel,revenue\n2024-01-05,Online,10\n2024-02-11,Retail,20\n");
  auto dataset = data::open_dataset(csv);
  ASSERT_TRUE(dataset) << dataset.error().describe();
  auto profile = data::profile_table(*dataset->db, dataset->table);
  ASSERT_TRUE(profile) << profile.error().describe();
  auto wordnet = core::WordNetSynonyms::open();
  if (!wordnet) GTEST_SKIP() << "no WordNet database: " << wordnet.error().describe();
  const std::vector<std::string> line_words = (*wordnet)->of("line");
  ASSERT_TRUE(std::binary_search(line_words.begin(), line_words.end(), "channel")) << "the case this test is about";
  auto extractor = RuleRequirementExtractor::load(core::AssetStore());
  ASSERT_TRUE(extractor);

  auto line = extractor->extract("monthly revenue as a line chart", *profile);
  auto channel = extractor->extract("monthly revenue per channel as a line chart", *profile);

  ASSERT_TRUE(line && channel);
  EXPECT_EQ(line->requirements.metrics, std::vector<std::string>{"revenue"}) << "WordNet files line beside channel";
  EXPECT_EQ(channel->requirements.group_by, std::vector<std::string>{"channel"});
  const auto players = dir.write("player.csv", "name,occupation,votes\nAnn,Doctor,10\nBob,Farmer,20\nCid,Doctor,5\n");
  auto club = data::open_dataset(players);
  ASSERT_TRUE(club) << club.error().describe();
  auto club_profile = data::profile_table(*club->db, club->table);
  ASSERT_TRUE(club_profile) << club_profile.error().describe();
  auto work = extractor->extract("the total votes for each line of work", *club_profile);
  ASSERT_TRUE(work) << work.error().describe();
  EXPECT_EQ(work->requirements.group_by, std::vector<std::string>{"occupation"}) << "a line of work is no chart";
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


TEST_F(RuleRequirementExtractorTest, ANamedDateWithoutAGrainIsAPlainColumn) {
  const Json counted = extract("count the orders by date");
  const Json listed = extract("a line chart of the change of revenue over date");
  const Json binned = extract("count the orders by date, bin the date into weekday interval");

  EXPECT_EQ(counted["time"], Json::parse(R"({"column": null, "grain": "unknown"})"));
  EXPECT_EQ(counted["group_by"], Json::parse(R"(["date"])"));
  EXPECT_EQ(listed["time"]["column"], Json());
  EXPECT_EQ(listed["metrics"], Json::parse(R"(["date", "revenue"])"));
  EXPECT_EQ(binned["time"]["column"], "date") << "a bucketing word keeps the time series";
}

TEST_F(RuleRequirementExtractorTest, TwoColumnsListedWithoutGroupingAreDrawnAsTheyAre) {
  const Json json = extract("show the revenue and region of the orders in a bar chart, sort by the y axis descending");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["region", "revenue"])")) << "the column of categories is the axis";
  EXPECT_EQ(json["group_by"], Json::array());
  EXPECT_EQ(json["constraints"], Json::parse(R"([{"type": "sort", "column": "revenue", "direction": "desc"}])"));
  EXPECT_EQ(extract("revenue by region")["group_by"], Json::parse(R"(["region"])")) << "a grouping phrase still groups";
}

TEST_F(RuleRequirementExtractorTest, GroupByAttributeGroupsAScatter) {
  const Json json = extract("the correlation between units and revenue, and group by attribute region");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["units", "revenue"])"));
  EXPECT_EQ(json["group_by"], Json::parse(R"(["region"])"));
}

TEST_F(RuleRequirementExtractorTest, AMeasureComparedWithANumberIsAFilter) {
  EXPECT_EQ(extract("revenue per region where units lower than 3")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "units", "op": "<", "value": 3}])"));
  EXPECT_EQ(extract("count of orders per region with revenue between 50 and 200")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "between", "value": [50, 200]}])"));
}

TEST_F(RuleRequirementExtractorTest, ARangeWrittenHighFirstKeepsTheSameRows) {
  EXPECT_EQ(extract("count of orders per region with revenue between 200 and 50")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "between", "value": [50, 200]}])"));
  EXPECT_EQ(extract("count of orders per region with revenue between 2.5 and 1")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "between", "value": [1, 2.5]}])"));
}

TEST_F(RuleRequirementExtractorTest, ACountOfTheTablesRowsComparedFiltersEachGroupsCount) {
  const std::string csv = "flno,origin,price\n1,Chicago,100\n2,Chicago,200\n3,Boston,300\n4,Denver,400\n";
  const Json more = requirements_from("flight.csv", csv, "Which origins have more than 1 flight?");
  EXPECT_EQ(more["constraints"], Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": ">", "value": 1}])j"));
  EXPECT_EQ(more["group_by"], Json::parse(R"(["origin"])")) << "the groups the count is of";
  EXPECT_EQ(more["metrics"], Json::array());
  EXPECT_EQ(requirements_from("flight.csv", csv, "origins with 2 or more flights")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": ">=", "value": 2}])j"));
  EXPECT_EQ(requirements_from("flight.csv", csv, "the number of flights per origin with at least 2 records")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": ">=", "value": 2}])j"))
      << "a row noun names the rows too";
}

TEST_F(RuleRequirementExtractorTest, ACountOfRowsAfterANumericColumnComparesNoColumn) {
  const std::string csv = "StuID,Advisor,Age\n1,1121,18\n2,1121,19\n3,1121,20\n4,7712,21\n5,7712,22\n";
  const Json json = requirements_from("student.csv", csv, "Which advisors have more than 2 students?");
  EXPECT_EQ(json["constraints"], Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": ">", "value": 2}])j"))
      << "no Advisor > 2";
  EXPECT_EQ(json["group_by"], Json::parse(R"(["Advisor"])"));
}

TEST_F(RuleRequirementExtractorTest, ACountThresholdMayBeWrittenOutOrExact) {
  const std::string csv = "flno,origin,price\n1,Chicago,100\n2,Chicago,200\n3,Boston,300\n4,Denver,400\n";
  EXPECT_EQ(requirements_from("flight.csv", csv, "Which origins have more than one flight?")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": ">", "value": 1}])j"));
  EXPECT_EQ(requirements_from("flight.csv", csv, "origins with exactly 2 flights")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": "=", "value": 2}])j"));
}

TEST_F(RuleRequirementExtractorTest, GroupsKeptByAnAggregateAreOfTheIdTheirNameNames) {
  const std::string csv = "EMPLOYEE_ID,SALARY,DEPARTMENT_ID\n1,100,10\n2,200,10\n3,300,20\n4,50,30\n5,70,30\n";
  const Json counted = requirements_from("employees.csv", csv, "departments with 2 or more employees");
  const Json summed = requirements_from("employees.csv", csv, "departments whose total salary exceeds 250");
  EXPECT_EQ(counted["group_by"], Json::parse(R"(["DEPARTMENT_ID"])"));
  EXPECT_EQ(summed["group_by"], Json::parse(R"(["DEPARTMENT_ID"])"));
  EXPECT_EQ(summed["constraints"], Json::parse(R"j([{"type": "filter", "column": "sum(SALARY)", "op": ">", "value": 250}])j"));
  EXPECT_EQ(requirements_from("employees.csv", csv, "the total salary of the departments")["group_by"], Json::array())
      << "without a group filter the word groups nothing";
}

TEST_F(RuleRequirementExtractorTest, GroupsKeptByAnAggregateAreOfTheLongestIdNamed) {
  const std::string csv = "Visit_ID,Tourist_Attraction_ID,Tourist_ID\n1,6476,100\n2,6476,100\n3,6852,200\n4,6852,100\n";
  EXPECT_EQ(requirements_from("visits.csv", csv, "tourist attractions with at least 2 visits")["group_by"],
            Json::parse(R"(["Tourist_Attraction_ID"])"))
      << "not Tourist_ID, whose word starts the name";
  EXPECT_EQ(requirements_from("visits.csv", csv, "tourists with at least 2 visits")["group_by"],
            Json::parse(R"(["Tourist_ID"])"));
}

TEST_F(RuleRequirementExtractorTest, TheThingAnIdIdentifiesNamedBeforeARankingWordIsTheKeyRanked) {
  const std::string actors = "Actor_ID,Name,Musical_ID,age\n1,Ann,6,20\n2,Bob,6,30\n3,Cy,2,40\n4,Di,6,50\n";
  const Json most = requirements_from("actor.csv", actors, "Which musical has the most actors?");
  EXPECT_EQ(most["group_by"], Json::parse(R"(["Musical_ID"])"));
  EXPECT_EQ(most["constraints"], Json::parse(R"([{"type": "sort", "column": "count", "direction": "desc"},
                                                 {"type": "limit", "n": 1}])"));
  const std::string employees = "EMPLOYEE_ID,SALARY,DEPARTMENT_ID\n1,100,10\n2,200,10\n3,300,20\n4,50,30\n5,70,30\n";
  const Json top = requirements_from("employees.csv", employees, "the 2 departments with the highest average salary");
  EXPECT_EQ(top["group_by"], Json::parse(R"(["DEPARTMENT_ID"])")) << "a key, though its values are numbers";
  EXPECT_EQ(top["metrics"], Json::parse(R"(["SALARY"])"));
  EXPECT_EQ(top["constraints"], Json::parse(R"([{"type": "sort", "column": "SALARY", "direction": "desc"},
                                                {"type": "limit", "n": 2}])"));
  EXPECT_EQ(requirements_from("employees.csv", employees, "top 2 departments by total salary")["group_by"],
            Json::parse(R"(["DEPARTMENT_ID"])"));
  const std::string items =
      "order_item_id,order_id,product_id,product_quantity\n1,1,4,6\n2,1,14,9\n3,2,4,4\n"
      "4,3,3,9\n5,3,14,6\n6,4,12,8\n";
  const Json counted = requirements_from("Order_items.csv", items,
                                         "Which 3 products were ordered in the largest total quantity?");
  EXPECT_EQ(counted["group_by"], Json::parse(R"(["product_id"])"))
      << "a count before the thing, a ranking word later";
  const std::string logs =
      "problem_log_id,assigned_to_staff_id,problem_id\n1,11,8\n2,6,8\n3,6,9\n4,11,9\n5,6,7\n";
  const Json asked =
      requirements_from("problem_log.csv", logs, "Which staff member is assigned the most problem logs?");
  EXPECT_EQ(asked["group_by"], Json::parse(R"(["assigned_to_staff_id"])")) << "'which' before the thing";
  EXPECT_EQ(asked["constraints"], sorted_on("count", "desc", 1));
  EXPECT_EQ(counted["constraints"],
            Json::parse(R"([{"type": "sort", "column": "product_quantity", "direction": "desc"},
                                                    {"type": "limit", "n": 3}])"));
}

TEST_F(RuleRequirementExtractorTest, ARankedIdIsShownByTheNameBesideIt) {
  const std::string csv = "id,start_station_name,start_station_id\n1,Caltrain,70\n2,Caltrain,70\n3,Ferry,50\n"
                          "4,Ferry,50\n5,Ferry,50\n6,Market,60\n";
  const Json json = requirements_from("trip.csv", csv, "top 2 start stations by number of trips");
  EXPECT_EQ(json["group_by"], Json::parse(R"(["start_station_name"])")) << "as many names as ids";
  EXPECT_EQ(json["constraints"], sorted_on("count", "desc", 2));
}

TEST_F(RuleRequirementExtractorTest, TheThingATablesOwnKeyIdentifiesRanksItsRowsShownByName) {
  const std::string csv =
      "Team_ID,School_ID,Team_Name,ACC_Percent\n1,1,North Carolina,.875\n2,2,Duke,.813\n"
      "3,4,Clemson,.625\n4,5,Virginia Tech,.563\n";
  const Json one = requirements_from("basketball_match.csv", csv, "Which team has the highest ACC percent?");
  EXPECT_EQ(one["group_by"], Json::array()) << "one row per team: nothing to group";
  EXPECT_EQ(one["metrics"], Json::parse(R"(["Team_Name", "ACC_Percent"])"));
  EXPECT_EQ(one["constraints"], sorted_on("ACC_Percent", "desc", 1));
  const Json two =
      requirements_from("basketball_match.csv", csv, "Which 2 teams have the lowest ACC percent?");
  EXPECT_EQ(two["metrics"], Json::parse(R"(["Team_Name", "ACC_Percent"])"));
  EXPECT_EQ(two["constraints"], sorted_on("ACC_Percent", "asc", 2));
  EXPECT_EQ(
      requirements_from("basketball_match.csv", csv, "Which school has the highest ACC percent?")["metrics"],
      Json::parse(R"(["School_ID", "ACC_Percent"])"))
      << "no School_Name: the id shows the school";
}

TEST_F(RuleRequirementExtractorTest, AWordNamingTheTablesRowsNamesNoColumnStartingWithIt) {
  const std::string csv =
      "id,invoice_date,billing_country,total\n1,2007-01-01,Germany,1.98\n"
      "2,2007-01-02,Norway,3.96\n3,2007-01-03,Germany,5.94\n";
  const Json json = requirements_from("invoices.csv", csv, "How many invoices were billed to Germany?");
  EXPECT_EQ(json["group_by"], Json::array()) << "invoices are the rows, not invoice_date";
  EXPECT_EQ(
      json["constraints"],
      Json::parse(R"([{"type": "filter", "column": "billing_country", "op": "=", "value": "Germany"}])"));
  EXPECT_EQ(requirements_from("invoices.csv", csv, "total per invoice date")["group_by"],
            Json::parse(R"(["invoice_date"])"))
      << "the column's whole name still names it";
}

TEST_F(RuleRequirementExtractorTest, AValueWrittenInTwoCasesIsOneValueNotAComparison) {
  const std::string csv = "date,events\n2015-01-01,Rain\n2015-01-02,rain\n2015-01-03,Fog\n2015-01-04,\n";
  const Json json = requirements_from("weather.csv", csv, "How many days had a Rain event?");
  EXPECT_EQ(json["group_by"], Json::array());
  EXPECT_EQ(
      json["constraints"],
      Json::parse(R"([{"type": "filter", "column": "events", "op": "in", "value": ["Rain", "rain"]}])"));
}

TEST_F(RuleRequirementExtractorTest, ATwoWordNameWrittenAsOneWordNamesTheColumn) {
  const std::string csv = "CLASS_CODE,CLASS_ROOM,zip_code\n1,KLR200,94107\n2,KLR200,94107\n3,BUS311,94041\n";
  EXPECT_EQ(requirements_from("CLASS.csv", csv, "Which classroom hosts the most classes?")["group_by"],
            Json::parse(R"(["CLASS_ROOM"])"));
  EXPECT_EQ(requirements_from("CLASS.csv", csv, "number of classes per zipcode")["group_by"],
            Json::parse(R"(["zip_code"])"));
}

TEST_F(RuleRequirementExtractorTest, AColumnNamedOnceInAnotherWordOrderOnlyFilters) {
  const std::string csv = "ID,Name,Level_of_membership,Age\n1,Ann,8,35\n2,Bob,2,20\n3,Cy,5,28\n4,Di,6,36\n";
  const Json json =
      requirements_from("visitor.csv", csv, "Average age of visitors with a membership level above 4");
  EXPECT_EQ(json["metrics"], Json::parse(R"(["Age"])")) << "membership level names Level_of_membership once";
  EXPECT_EQ(json["group_by"], Json::array());
  EXPECT_EQ(json["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Level_of_membership", "op": ">", "value": 4}])"));
}

TEST_F(RuleRequirementExtractorTest, RankedRowsOfTheTableAreShownByTheirName) {
  const std::string csv = "dog_id,name,age\n1,Kacey,6\n2,Hipolito,9\n3,Mavis,8\n";
  const Json json = requirements_from("Dogs.csv", csv, "Who is the oldest dog?");
  EXPECT_EQ(json["metrics"], Json::parse(R"(["name", "age"])"));
  EXPECT_EQ(json["constraints"], sorted_on("age", "desc", 1));
  EXPECT_EQ(requirements_from("flight.csv", "flno,origin,price\n1,Paris,100.5\n2,Rome,300.25\n",
                              "Which flight has the highest price?")["metrics"],
            Json::parse(R"(["price"])"))
      << "no column names a flight";
}

TEST_F(RuleRequirementExtractorTest, ACountedColumnOfOneValuePerRowNamesTheRows) {
  const std::string csv = "game_id,id,Player,Injury\n1,1,Ann,Knee surgery\n6,2,Bob,Ankle sprain\n"
                          "6,3,Cy,Hamstring\n6,4,Di,Back pain\n2,5,Ed,Broken toe\n";
  const Json json = requirements_from("injury_accident.csv", csv, "Which game had the most injuries?");
  EXPECT_EQ(json["group_by"], Json::parse(R"(["game_id"])")) << "each injury is a row: no key";
  EXPECT_EQ(json["constraints"], sorted_on("count", "desc", 1));
}

TEST_F(RuleRequirementExtractorTest, AnIdsThingAfterAGroupingPhraseIsTheKeyThoughOtherColumnsShareItsWord) {
  const std::string csv = "order_item_id,order_id,product_id,product_quantity,other_order_item_details\n"
                          "1,4,4,6,\n2,4,10,7,\n3,13,2,5,\n4,13,1,2,\n5,1,9,8,\n";
  const Json json = requirements_from("order_items.csv", csv, "How many order items over 4 does each order have?");
  EXPECT_EQ(json["group_by"], Json::parse(R"(["order_id"])")) << "'order' is a word of three columns";
  EXPECT_EQ(json["constraints"],
            Json::parse(R"([{"type": "filter", "column": "product_quantity", "op": ">", "value": 4}])"));
}

TEST_F(RuleRequirementExtractorTest, TheLastWordOfAnIdsThingNamesItWhenNoOtherIdEndsSo) {
  const std::string csv = "problem_log_id,assigned_to_staff_id,problem_id\n1,11,1\n2,11,2\n3,6,2\n4,6,3\n5,6,4\n6,4,5\n";
  EXPECT_EQ(requirements_from("problem_log.csv", csv, "staff members with more than one problem log")["group_by"],
            Json::parse(R"(["assigned_to_staff_id"])"));
  const std::string trips = "id,start_station_id,end_station_id\n1,50,60\n2,50,70\n3,60,70\n";
  EXPECT_EQ(requirements_from("trip.csv", trips, "stations with more than one trip")["group_by"], Json::array())
      << "start or end station: the question does not say";
}

TEST_F(RuleRequirementExtractorTest, AnIdsThingOwningTheRankedRowsIsNoKey) {
  const std::string employees = "EMPLOYEE_ID,SALARY,DEPARTMENT_ID\n1,100,10\n2,200,10\n3,300,20\n4,50,30\n5,70,30\n";
  const Json json = requirements_from("employees.csv", employees, "the department of the employee with the highest salary");
  EXPECT_EQ(json["group_by"], Json::array()) << "one employee is ranked, not the departments";
  EXPECT_EQ(requirements_from("employees.csv", employees, "departments with salary at most 100")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "SALARY", "op": "<=", "value": 100}])"))
      << "'at most' compares; it ranks nothing";
}

TEST_F(RuleRequirementExtractorTest, RowsComparedWithANumberCompareTheTablesOneMeasure) {
  const std::string csv = "transaction_id,account_id,transaction_amount\n1,11,1200\n2,11,1800\n3,12,2500\n4,13,90\n";
  const Json json = requirements_from("financial_transactions.csv", csv, "How many transactions over 1500 does each account have?");
  EXPECT_EQ(json["constraints"],
            Json::parse(R"([{"type": "filter", "column": "transaction_amount", "op": ">", "value": 1500}])"));
  EXPECT_EQ(json["group_by"], Json::parse(R"(["account_id"])"));
}

TEST_F(RuleRequirementExtractorTest, RowsComparedByAComparativeCompareTheColumnItNames) {
  const std::string csv = "id,name,Height,Prominence\n1,Bada,4195,1605\n2,Ioll,4220,350\n3,Kaka,4000,1000\n";
  EXPECT_EQ(requirements_from("mountain.csv", csv, "Which mountains are higher than 4100?")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Height", "op": ">", "value": 4100}])"))
      << "Height, though Prominence is a measure too";
  const std::string coasters = "Roller_Coaster_ID,Name,Length,Speed\n1,Bullet,3236,51\n2,Hades,4726,70\n";
  EXPECT_EQ(requirements_from("roller_coaster.csv", coasters, "Which roller coasters are faster than 55 mph?")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Speed", "op": ">", "value": 55}])"));
  const std::string aircraft = "aid,name,distance\n1,Boeing 747-400,8430\n2,Boeing 737-800,3383\n";
  EXPECT_EQ(requirements_from("aircraft.csv", aircraft, "Which aircraft can fly farther than 6000?")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "distance", "op": ">", "value": 6000}])"));
  const std::string teachers = "Teacher_ID,Name,Age,Hometown\n1,Ann,45,Bolton\n2,Bob,30,Bury\n3,Cy,39,Bolton\n";
  EXPECT_EQ(requirements_from("teacher.csv", teachers, "Which teachers are over 35?")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Age", "op": ">", "value": 35}])"))
      << "Age, the one measure";
}

TEST_F(RuleRequirementExtractorTest, AUnitAfterTheNumberNamesTheColumnCompared) {
  const std::string csv = "flno,origin,distance,price\n1,Chicago,2300,100\n2,Chicago,900,200\n3,Boston,2100,300\n";
  EXPECT_EQ(requirements_from("flight.csv", csv, "How many flights longer than 2000 miles does each origin have?")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "distance", "op": ">", "value": 2000}])"));
}

TEST_F(RuleRequirementExtractorTest, AComparisonThatComparesNoColumnIsRefusedNotDropped) {
  const std::string csv = "flno,origin,distance,price\n1,Chicago,2300,100\n2,Chicago,900,200\n3,Boston,2100,300\n";
  const core::Result<ExtractedRequirements> json =
      extract_from("flight.csv", csv, "How many flights over 2000 does each origin have?");
  ASSERT_FALSE(json) << "distance or price: the question does not say";
  EXPECT_NE(json.error().message.find("compares 'over 2000'"), std::string::npos) << json.error().message;
  EXPECT_NE(json.error().message.find("flno, distance, price"), std::string::npos) << json.error().message;
}

TEST_F(RuleRequirementExtractorTest, AUnitEndingAColumnsNameMayBeLeftOut) {
  const std::string csv = "date,max_sea_level_pressure_inches,mean_sea_level_pressure_inches\n"
                          "2015-01-01,30.5,30.4\n2015-01-02,30.2,30.1\n2015-01-03,30.9,30.7\n";
  EXPECT_EQ(requirements_from("weather.csv", csv, "dates whose mean sea level pressure is between 30.3 and 31")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "mean_sea_level_pressure_inches", "op": "between",
                             "value": [30.3, 31]}])"));
}

TEST_F(RuleRequirementExtractorTest, AmountsThatAddUpToANumberKeepGroupsByTheirSum) {
  const std::string csv = "id,billing_country,total\n1,USA,100\n2,USA,90\n3,France,20\n4,Chile,160\n";
  const Json json = requirements_from("invoices.csv", csv, "billing countries whose invoice totals add up to more than 150");
  EXPECT_EQ(json["constraints"], Json::parse(R"j([{"type": "filter", "column": "sum(total)", "op": ">", "value": 150}])j"));
  EXPECT_EQ(json["group_by"], Json::parse(R"(["billing_country"])")) << "the groups kept, not a metric";
  EXPECT_EQ(json["metrics"], Json::parse(R"(["total"])"));
}

TEST_F(RuleRequirementExtractorTest, ACountedNounThatIsOnlyAWordOfAColumnStillNamesTheRows) {
  const std::string csv = "registration_id,student_id,date_of_enrolment\n1,11,2017-10-09\n2,11,2017-11-09\n"
                          "3,12,2017-12-09\n4,13,2018-01-09\n";
  const Json json = requirements_from("student_course_enrolment.csv", csv, "students with at least two enrolments");
  EXPECT_EQ(json["constraints"], Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": ">=", "value": 2}])j"));
  EXPECT_EQ(json["group_by"], Json::parse(R"(["student_id"])")) << "not date_of_enrolment";
}

TEST_F(RuleRequirementExtractorTest, AnAggregationReachesAcrossTheWordsOfItsColumnAndRanksNothing) {
  const std::string csv = "customer_id,amount_payment,Year\n1,100,2001\n1,200,2001\n2,50,2002\n";
  const Json total = requirements_from("customer_payments.csv", csv, "customers whose total payment amount is above 150");
  const Json lowest = requirements_from("customer_payments.csv", csv, "years whose lowest payment amount is at most 60");
  EXPECT_EQ(total["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "sum(amount_payment)", "op": ">", "value": 150}])j"));
  EXPECT_EQ(total["group_by"], Json::parse(R"(["customer_id"])"));
  EXPECT_EQ(lowest["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "min(amount_payment)", "op": "<=", "value": 60}])j"))
      << "no sort on the amount";
  const std::string products = "product_type,product_price\nClothes,800\nClothes,600\nHardware,900\n";
  EXPECT_EQ(requirements_from("products.csv", products, "Average price of products priced above 700 per product type")
                ["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "product_price", "op": ">", "value": 700}])j"))
      << "the aggregation word belongs to the other mention of the price: the filter keeps rows";
}

TEST_F(RuleRequirementExtractorTest, AnIdThatRepeatsNamesNoRowsToCount) {
  const std::string csv = "order_id,customer_id,region\n1,7,West\n2,7,West\n3,8,East\n4,9,East\n";
  EXPECT_EQ(requirements_from("sales.csv", csv, "regions with more than 1 order")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "count(*)", "op": ">", "value": 1}])j"));
  const core::Result<ExtractedRequirements> customers = extract_from("sales.csv", csv, "regions with more than 1 customer");
  ASSERT_FALSE(customers) << "customers are no rows of sales: counting them is counting distinct ids";
  EXPECT_NE(customers.error().message.find("compares 'more than 1'"), std::string::npos)
      << customers.error().message;
}

TEST_F(RuleRequirementExtractorTest, AnAggregationBeforeAComparedMeasureFiltersThatAggregate) {
  EXPECT_EQ(extract("regions with an average revenue above 100")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "avg(revenue)", "op": ">", "value": 100}])j"));
  EXPECT_EQ(extract("units per region where the total revenue is at least 150")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "sum(revenue)", "op": ">=", "value": 150}])j"));
  EXPECT_EQ(extract("regions with an average of revenue above 100")["constraints"],
            Json::parse(R"j([{"type": "filter", "column": "avg(revenue)", "op": ">", "value": 100}])j"));
  EXPECT_EQ(extract("average units per region for orders with revenue above 100")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": ">", "value": 100}])"))
      << "a measure compared without an aggregation word keeps rows";
}

TEST_F(RuleRequirementExtractorTest, TopNOfANamedColumnRanksByThatColumn) {
  const Json requirements = extract("a scatter chart of the units and revenue of the orders with the top 3 revenue");

  EXPECT_EQ(requirements["metrics"], Json::parse(R"(["units", "revenue"])"));
  EXPECT_EQ(requirements["constraints"],
            Json::parse(R"([{"type": "sort", "column": "revenue", "direction": "desc"}, {"type": "limit", "n": 3}])"));
}

TEST_F(RuleRequirementExtractorTest, OverAColumnGroupsOnlyWhenTheQuestionCounts) {
  EXPECT_EQ(extract("the number of units over units by region in a line chart")["group_by"],
            Json::parse(R"(["units", "region"])"));
  EXPECT_EQ(extract("the change of revenue over units in a line chart")["group_by"], Json::array());
}

TEST_F(RuleRequirementExtractorTest, TheTableNamedByItsNameIsNoTableToOutput) {
  EXPECT_EQ(extract("the proportion of the number of regions in the sales table")["outputs"],
            Json::parse(R"(["chart", "table"])"));
  EXPECT_EQ(extract("the number of orders per region as a table")["outputs"], Json::parse(R"(["table"])"));
}

TEST_F(RuleRequirementExtractorTest, AGroupingPhraseReachesAcrossAnOwner) {
  EXPECT_EQ(extract("a scatter of units and revenue grouped by the sale's region")["group_by"], Json::parse(R"(["region"])"));
}

TEST_F(RuleRequirementExtractorTest, AColumnNamedOnTheXAxisStaysAKeyThoughCounted) {
  EXPECT_EQ(extract("a stacked bar chart, the x-axis is region and group the product category, "
                    "and y-axis is the number of regions")["group_by"],
            Json::parse(R"(["region", "product_category"])"));
}

TEST_F(RuleRequirementExtractorTest, OnlyMakesValuesNamedTogetherAListToKeep) {
  EXPECT_EQ(extract("total revenue by product category for only the West and East regions")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "region", "op": "in", "value": ["West", "East"]}])"));

}

TEST_F(RuleRequirementExtractorTest, AQuestionThatOnlyAsksTimeCountsRowsAlongTheDateColumn) {
  const Json json = extract("number of orders per weekday");

  EXPECT_EQ(json["time"]["column"], "date");
  EXPECT_EQ(json["analysis"], Json::parse(R"(["total"])"));
}

TEST_F(RuleRequirementExtractorTest, HighToLowWithoutAnAxisSortsTheValues) {
  EXPECT_EQ(extract("the total revenue for each region, sorted from high to low")["constraints"],
            Json::parse(R"([{"type": "sort", "column": "revenue", "direction": "desc"}])"));
  EXPECT_EQ(extract("the total revenue for each region, in descending order")["constraints"],
            Json::parse(R"([{"type": "sort", "column": "region", "direction": "desc"}])"));
}

TEST_F(RuleRequirementExtractorTest, AYearTheDatesSpanKeepsThatYearsRows) {
  EXPECT_EQ(extract("total revenue by region in 2024")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "2024-01-01"},
                            {"type": "filter", "column": "date", "op": "<", "value": "2025-01-01"}])"));
}

// The year is the question's, not the data's: answering over every year would be a wrong answer
// that looks right. The filter keeps no row, and the run says so (filter_rows names the range).
TEST_F(RuleRequirementExtractorTest, AYearNoDateFallsInStillFiltersTheDates) {
  EXPECT_EQ(extract("total revenue by region in 1999")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "1999-01-01"},
                            {"type": "filter", "column": "date", "op": "<", "value": "2000-01-01"}])"));
}

TEST_F(RuleRequirementExtractorTest, PerOrderByNamesNoSort) {
  const Json json = extract("average units per order by region and product category");

  EXPECT_EQ(json["constraints"], Json::array());
  EXPECT_EQ(json["group_by"], Json::parse(R"(["region", "product_category"])"));
}

TEST_F(RuleRequirementExtractorTest, AboveOneNumberOrBelowAnotherKeepsWhatLiesOutside) {
  EXPECT_EQ(extract("count of orders per region with revenue higher than 1000 or lower than 500")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "not_between", "value": [500, 1000]}])"));
  EXPECT_EQ(extract("count of orders per region with revenue below 20 or above 90")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "not_between", "value": [20, 90]}])"));
  const core::Result<ExtractedRequirements> every = extract_result("count of orders per region with revenue above 20 or below 90");
  ASSERT_FALSE(every) << "every revenue is above 20 or below 90: neither comparison is dropped in silence";
  EXPECT_NE(every.error().message.find("'below 90'"), std::string::npos) << every.error().message;
}

TEST_F(RuleRequirementExtractorTest, AQuarterWithItsYearKeepsThatQuartersDates) {
  EXPECT_EQ(extract("the total revenue in Q4 2024")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "2024-10-01"},
                            {"type": "filter", "column": "date", "op": "<", "value": "2025-01-01"}])"));
  EXPECT_EQ(extract("revenue by region in 2024 Q1")["constraints"][1]["value"], "2024-04-01");
  EXPECT_EQ(extract("revenue by region in Q1")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "2024-01-01"},
                            {"type": "filter", "column": "date", "op": "<", "value": "2024-04-01"}])"))
      << "no year: the one Q1 the dates reach";
  EXPECT_EQ(extract("revenue by region in Q1 1999")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "1999-01-01"},
                            {"type": "filter", "column": "date", "op": "<", "value": "1999-04-01"}])"))
      << "a quarter the dates do not reach still filters: the run reports that no row is left";
}

// "2024-03-02" tokenizes as 2024, 03, 02: a date no column was named for keeps its day, and a
// comparison or a range before it bounds the first date column by whole days.
TEST_F(RuleRequirementExtractorTest, ADateKeepsItsDayOrBoundsTheDates) {
  EXPECT_EQ(extract("revenue by region on 2024-03-02")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "2024-03-02"},
                            {"type": "filter", "column": "date", "op": "<", "value": "2024-03-03"}])"));
  EXPECT_EQ(extract("units by region after 2024-03-01")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "2024-03-02"}])"));
  EXPECT_EQ(extract("revenue by region from 2024-01-01 to 2024-01-31")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "2024-01-01"},
                            {"type": "filter", "column": "date", "op": "<", "value": "2024-02-01"}])"));
  EXPECT_EQ(extract("revenue by region on 2031-05-01")["constraints"][0]["value"], "2031-05-01")
      << "a day the data does not reach still filters";
}

TEST_F(RuleRequirementExtractorTest, ADateNoCalendarHasIsRefusedByName) {
  const core::Result<ExtractedRequirements> result = extract_result("revenue since 2024-02-30");

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(result.error().message.find("2024-02-30"), std::string::npos) << result.error().message;
}

// A negation reaches every value of the list it starts: "excluding West and East" keeps neither
// (it kept the rows of East before, the opposite of what was asked).
TEST_F(RuleRequirementExtractorTest, ANegatedListOfValuesExcludesEveryOne) {
  EXPECT_EQ(extract("revenue by product category, excluding the West and East regions")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "region", "op": "not_in", "value": ["West", "East"]}])"));
  EXPECT_EQ(extract("revenue by product category except West, East and North")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "region", "op": "not_in",
                             "value": ["West", "East", "North"]}])"));
  EXPECT_EQ(extract("revenue by product category not in the West region")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "region", "op": "!=", "value": "West"}])"));
  EXPECT_EQ(extract("revenue by product category excluding the West region for Clothing")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "product_category", "op": "=", "value": "Clothing"},
                            {"type": "filter", "column": "region", "op": "!=", "value": "West"}])"))
      << "a value of another column after the list is kept, not excluded";
}

// "in the Nowhere region" names a region the data does not hold: the question is refused with the
// regions there are (the word was dropped before, and the answer covered every region).
TEST_F(RuleRequirementExtractorTest, AnUnknownNameBeforeACategoryIsRefusedWithItsValues) {
  const core::Result<ExtractedRequirements> result = extract_result("revenue by product category in the Nowhere region");

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(result.error().message, "the question names 'Nowhere' as a region, and region holds only: West, East, North")
      << result.error().message;
  EXPECT_EQ(extract("revenue by product category in the West region")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "region", "op": "=", "value": "West"}])"))
      << "a value the data holds filters as before";
}

// A column with too many values for the profile to list them all: a name it may hold filters, so
// the run says when no row has it.
TEST(RuleRequirementExtractor, AnUnlistedNameBeforeACategoryFilters) {
  std::string csv = "city,sales\n";
  for (int i = 0; i < 60; ++i) csv += "Town " + std::to_string(i) + "," + std::to_string(i) + "\n";
  const Json requirements = requirements_from("towns.csv", csv, "total sales in the Springfield city");
  EXPECT_EQ(requirements["constraints"],
            Json::parse(R"([{"type": "filter", "column": "city", "op": "=", "value": "Springfield"}])"));
  EXPECT_EQ(requirements_from("towns.csv", csv, "total sales excluding the New Springfield city")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "city", "op": "!=", "value": "New Springfield"}])"));
}

// "how many faculty in room 100", with no room 100, was answered with every room's count: a number
// right after the name of a column of numbers is one of its values.
TEST(RuleRequirementExtractor, AnUnknownNumberAfterANumberedCategoryIsRefusedWithItsValues) {
  const std::string csv = "FacID,Rank,Room\n1,Professor,224\n2,Instructor,224B\n3,Professor,288\n4,Professor,288\n"
                          "5,AsstProf,224\n6,Professor,288\n";
  const core::Result<ExtractedRequirements> result = extract_from("Faculty.csv", csv, "how many faculty in room 100");

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message, "the question names '100' as a Room, and Room holds only: 288, 224, 224B");
  EXPECT_EQ(requirements_from("Faculty.csv", csv, "how many faculty in room 288")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Room", "op": "=", "value": "288"}])"));
  EXPECT_EQ(requirements_from("Faculty.csv", csv, "how many faculty in rooms 100 or more")["group_by"],
            Json::parse(R"(["Room"])"))
      << "a number that starts a range is no value";
}

// A category of whole numbers (an ordinal) lists no values: a number after its name filters, so the
// run says when no row has it.
TEST(RuleRequirementExtractor, AnUnknownNumberAfterAWholeNumberCategoryFilters) {
  std::string csv = "player,level,score\n";
  for (int i = 0; i < 30; ++i) csv += "p" + std::to_string(i) + "," + std::to_string(1 + i % 6) + "," + std::to_string(i * 7) + "\n";
  EXPECT_EQ(requirements_from("players.csv", csv, "how many players at level 7")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "level", "op": "=", "value": 7}])"));
  EXPECT_EQ(requirements_from("players.csv", csv, "how many players not at level 7")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "level", "op": "!=", "value": 7}])"));
}

// "orders by weekday" counts orders per weekday: it was read as "order by weekday", a sort with no
// column, and the question was refused as naming none.
TEST_F(RuleRequirementExtractorTest, APluralNounOrABucketAfterByIsNoSortClause) {
  for (const std::string question : {"sales by weekday", "show sales by weekday"}) {  // the table's rows
    const Json requirements = extract(question);
    EXPECT_EQ(requirements["time"]["column"], "date") << question;
    EXPECT_EQ(requirements["constraints"], Json::array()) << question;
  }
  EXPECT_EQ(extract("sales by region")["constraints"], Json::array()) << "no sort on the key it groups by";
  EXPECT_EQ(extract("list orders by revenue")["constraints"],
            Json::parse(R"([{"type": "sort", "column": "revenue", "direction": "asc"}])"))
      << "a listing verb before the noun still sorts";
}

// "total profit per region" over data with no profit column was answered with each region's count
// of rows: the question is refused, naming the measures there are.
TEST_F(RuleRequirementExtractorTest, AQuantityNoColumnHoldsIsRefusedNotCounted) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"total profit per region", "profit"},
      {"profit margin by region over time", "profit margin"},
      {"monthly profit", "profit"},
      {"the profit trend", "profit"}};
  for (const auto& [question, asked] : cases) {
    const core::Result<ExtractedRequirements> result = extract_result(question);
    ASSERT_FALSE(result.has_value()) << question;
    EXPECT_EQ(result.error().code, core::ErrorCode::kInvalidArgument);
    EXPECT_EQ(result.error().message, "the question asks for '" + asked +
                                          "', which no column of sales holds; the measures are: revenue, units; to "
                                          "count rows, ask for the number of " + asked);
  }
  EXPECT_EQ(extract("sales by region")["group_by"], Json::parse(R"(["region"])")) << "the rows, named: counted";
  EXPECT_EQ(extract("number of deals by region")["group_by"], Json::parse(R"(["region"])"))
      << "a count phrase counts rows whatever it calls them";
  EXPECT_EQ(extract("Clothing items by region")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "product_category", "op": "=", "value": "Clothing"}])"))
      << "a value and a row noun: the Clothing rows, counted";
  EXPECT_EQ(extract("Furniture by region")["group_by"], Json::parse(R"(["region"])")) << "a value names rows";
}

// Faculty's Phone was read as a measure, and a refusal listed it among the measures.
TEST(RuleRequirementExtractor, AQuantityRefusalOverATableWithNoMeasureSaysSo) {
  const std::string csv = "FacID,Lname,Rank,Sex,Phone\n1082,Giuliano,Instructor,M,2424\n"
                          "1121,Brody,Professor,M,8335\n1148,Goodrich,Professor,M,3593\n";
  const core::Result<ExtractedRequirements> result = extract_from("Faculty.csv", csv, "total profit per rank");

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message,
            "the question asks for 'profit', which no column of Faculty holds; it has no measure column; to count "
            "rows, ask for the number of profit");
}

TEST_F(RuleRequirementExtractorTest, AnUnmetComparisonIsQuotedWithItsDecimalPoint) {
  const core::Result<ExtractedRequirements> result = extract_result("revenue by region where discount is above 0.1");

  ASSERT_FALSE(result.has_value());
  EXPECT_NE(result.error().message.find("compares 'above 0.1'"), std::string::npos) << result.error().message;
}

TEST_F(RuleRequirementExtractorTest, ComparedValuesOfAColumnWithOthersKeepOnlyThem) {
  const Json requirements = extract("compare total revenue of the West and East regions");
  EXPECT_EQ(requirements["group_by"], Json::parse(R"(["region"])"));
  EXPECT_EQ(requirements["constraints"],
            Json::parse(R"([{"type": "filter", "column": "region", "op": "in", "value": ["West", "East"]}])"))
      << "North is not compared";
}

TEST_F(RuleRequirementExtractorTest, AComparisonAfterItsNumberOrWithOrEqualIsInclusive) {
  const auto revenue = [](const std::string& op, const Json& value) {
    return Json::array({Json{{"type", "filter"}, {"column", "revenue"}, {"op", op}, {"value", value}}});
  };
  EXPECT_EQ(extract("how many orders have a revenue of 100 or higher")["constraints"], revenue(">=", 100));
  EXPECT_EQ(extract("how many orders have revenue 99.5 or less")["constraints"], revenue("<=", 99.5));
  EXPECT_EQ(extract("orders with revenue greater than or equal to 100")["constraints"], revenue(">=", 100));
  EXPECT_EQ(extract("orders with revenue less than or equal to 100")["constraints"], revenue("<=", 100));
}

TEST_F(RuleRequirementExtractorTest, AComparedMonthOrYearKeepsTheDaysOnItsSide) {
  const auto since = [](const std::string& day) {
    return Json{{"type", "filter"}, {"column", "date"}, {"op", ">="}, {"value", day}};
  };
  const auto before = [](const std::string& day) {
    return Json{{"type", "filter"}, {"column", "date"}, {"op", "<"}, {"value", day}};
  };
  EXPECT_EQ(extract("total units from March 2024 onwards")["constraints"], Json::array({since("2024-03-01")}));
  EXPECT_EQ(extract("total units after February 2024")["constraints"], Json::array({since("2024-03-01")}));
  EXPECT_EQ(extract("total units since March 2024")["constraints"], Json::array({since("2024-03-01")}));
  EXPECT_EQ(extract("total units before March 2024")["constraints"], Json::array({before("2024-03-01")}));
  EXPECT_EQ(extract("total units up to February 2024")["constraints"], Json::array({before("2024-03-01")}));
  EXPECT_EQ(extract("total units between January 2024 and February 2024")["constraints"],
            Json::array({since("2024-01-01"), before("2024-03-01")}));
  EXPECT_EQ(extract("total units in 2024 or later")["constraints"], Json::array({since("2024-01-01")}));
  EXPECT_EQ(extract("total units from 2023 to 2024")["constraints"], Json::array({since("2023-01-01"), before("2025-01-01")}));
  EXPECT_EQ(extract("monthly revenue for 2024")["constraints"], Json::array({since("2024-01-01"), before("2025-01-01")}));
}

TEST_F(RuleRequirementExtractorTest, APeriodRangeWrittenLatestFirstKeepsTheSameDays) {
  for (const auto& [reversed, in_order] : std::vector<std::pair<std::string, std::string>>{
           {"total units between February 2024 and January 2024",
            "total units between January 2024 and February 2024"},
           {"total units from 2024 to 2023", "total units from 2023 to 2024"},
           {"total units from June 2024 to March 2024", "total units from March 2024 to June 2024"}}) {
    const Json expected = extract(in_order)["constraints"];
    ASSERT_EQ(expected.size(), 2u) << in_order;
    EXPECT_EQ(extract(reversed)["constraints"], expected) << reversed;
  }
}

TEST_F(RuleRequirementExtractorTest, AScaleWordMultipliesTheNumberBeforeIt) {
  const auto revenue = [](const std::string& op, const Json& value) {
    return Json::array({Json{{"type", "filter"}, {"column", "revenue"}, {"op", op}, {"value", value}}});
  };
  EXPECT_EQ(extract("how many orders have more than 1 million revenue")["constraints"], revenue(">", 1000000));
  EXPECT_EQ(extract("orders with revenue above 2.5 thousand")["constraints"], revenue(">", 2500));
  EXPECT_EQ(extract("orders with revenue between 1 million and 2 billion")["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "revenue"}, {"op", "between"},
                              {"value", Json::array({1000000, 2000000000})}}}));
  EXPECT_EQ(extract("orders with revenue above 1.25 thousand")["constraints"], revenue(">", 1250));
}

TEST_F(RuleRequirementExtractorTest, AScaleWordLeavesANumberAColumnAlreadyCountsInIt) {
  const std::string storms = "Name,Damage_millions_USD\nOne,13\nTwo,10.75\nThree,2\n";
  EXPECT_EQ(requirements_from("storm.csv", storms, "storms with damage greater than 10 million USD")["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "Damage_millions_USD"}, {"op", ">"}, {"value", 10}}}));
  const std::string stations = "Name,Total_Passengers\nOne,41.5\nTwo,94.0\nThree,22.3\n";
  EXPECT_EQ(requirements_from("station.csv", stations, "stations with more than 50 million total passengers")["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "Total_Passengers"}, {"op", ">"}, {"value", 50}}}))
      << "only 50 lies among the column's values";
}

TEST_F(RuleRequirementExtractorTest, AYearComparedBoundsDatesSpelledAsText) {
  const std::string csv = "Name,Birth_Date\nAnn,\"May 26, 1986\"\nBo,\"August 16, 1982\"\nCy,\"January 22, 1987\"\n";
  const Json born = requirements_from("people.csv", csv, "How many people were born after 1985?");
  EXPECT_EQ(born["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "Birth_Date"}, {"op", ">="}, {"value", "1986-01-01"}}}));
  EXPECT_EQ(born["group_by"], Json::array());
}

TEST_F(RuleRequirementExtractorTest, ATrendByAColumnOfYearsTakesNoOtherDateColumn) {
  const std::string csv = "Season,Date,Home_team\n2007,18 May 2007,A\n2007,22 September 2007,B\n2008,9 December 2008,A\n";
  const Json trend = requirements_from("game.csv", csv, "the trend of the number of games by season");
  EXPECT_EQ(trend["group_by"], Json::array({"Season"}));
  EXPECT_EQ(trend["time"]["column"], nullptr);
}

TEST_F(RuleRequirementExtractorTest, TheYearMayStandBetweenAComparisonAndItsYear) {
  EXPECT_EQ(extract("total units after the year 2023")["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "date"}, {"op", ">="}, {"value", "2024-01-01"}}}));
  EXPECT_EQ(extract("total units before year 2025")["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "date"}, {"op", "<"}, {"value", "2025-01-01"}}}));
}

TEST_F(RuleRequirementExtractorTest, CostAndBornNameThePriceAndTheBirthColumns) {
  const std::string csv = "product,unit_price,Birth_Year\nlamp,12.5,1980\ndesk,300,1990\nchair,80,1990\n";
  EXPECT_EQ(requirements_from("items.csv", csv, "How many products cost more than 50?")["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "unit_price"}, {"op", ">"}, {"value", 50}}}));
  EXPECT_EQ(requirements_from("items.csv", csv, "How many were born before 1985?")["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "Birth_Year"}, {"op", "<"}, {"value", 1985}}}));
}

TEST_F(RuleRequirementExtractorTest, AWholeNumberRightAfterAColumnOfRepeatedCodesIsItsValue) {
  const std::string csv = "StuID,Age,Major\n1,18,600\n2,20,600\n3,19,520\n4,22,520\n5,27,600\n";
  const Json major = requirements_from("students.csv", csv, "What is the maximum age of students in major 600?");
  EXPECT_EQ(major["constraints"], Json::array({Json{{"type", "filter"}, {"column", "Major"}, {"op", "="}, {"value", 600}}}));
  EXPECT_EQ(major["metrics"], Json::array({"Age"}));
  EXPECT_EQ(major["group_by"], Json::array());
  // Out of the column's range, or after a column whose values never repeat, a number is no value.
  EXPECT_EQ(requirements_from("students.csv", csv, "the average age of major 900")["constraints"], Json::array());
  EXPECT_EQ(requirements_from("students.csv", csv, "the age of StuID 3")["constraints"], Json::array());
}

TEST_F(RuleRequirementExtractorTest, CountingAColumnOfDistinctValuesCountsRowsNotKeys) {
  const std::string csv = "Player,College,Position\nAnn,UCLA,Defender\nBea,UCLA,Midfielder\nCid,Duke,Defender\n";
  const Json from = requirements_from("match_season.csv", csv, "How many players came from UCLA?");
  EXPECT_EQ(from["group_by"], Json::array());
  EXPECT_EQ(from["constraints"], Json::array({Json{{"type", "filter"}, {"column", "College"}, {"op", "="}, {"value", "UCLA"}}}));
  EXPECT_EQ(requirements_from("match_season.csv", csv, "How many players per position?")["group_by"], Json::array({"Position"}));
}

TEST_F(RuleRequirementExtractorTest, APluralNamesAnInitialledNameColumn) {
  const std::string csv = "FacID,Lname,Fname\n1,Amir,Ann\n2,Brill,Bo\n";
  EXPECT_EQ(requirements_from("Faculty.csv", csv, "List the last names sorted alphabetically")["constraints"],
            sorted_on("Lname", "asc"));
}

TEST_F(RuleRequirementExtractorTest, AWordOfALongerValueNamesTheValueNotAColumn) {
  const std::string csv = "battle,bulgarian_commander,result\nb1,Kaloyan,Bulgarian victory\nb2,Kaloyan,Latin victory\n"
                          "b3,Ivan,Bulgarian victory\n";
  const Json victory = requirements_from("battle.csv", csv, "How many battles ended in a Bulgarian victory?");
  EXPECT_EQ(victory["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "result"}, {"op", "="}, {"value", "Bulgarian victory"}}}));
  EXPECT_EQ(victory["group_by"], Json::array());
  EXPECT_EQ(requirements_from("battle.csv", csv, "How many battles per bulgarian commander?")["group_by"],
            Json::array({"bulgarian_commander"}));
}

TEST_F(RuleRequirementExtractorTest, AValueBetweenASuperlativeAndTheTableKeepsTheRanking) {
  const std::string csv = "product_type,product_name,product_price\nClothes,red jeans,734.73\nClothes,blue jeans,939.57\n"
                          "Hardware,mic,971.44\nClothes,red jeans,534.52\n";
  const Json clothes = requirements_from("products.csv", csv, "What is the most expensive clothes product?");
  EXPECT_EQ(clothes["constraints"],
            Json::array({Json{{"type", "filter"}, {"column", "product_type"}, {"op", "="}, {"value", "Clothes"}},
                         Json{{"type", "sort"}, {"column", "product_price"}, {"direction", "desc"}},
                         Json{{"type", "limit"}, {"n", 1}}}));
}

TEST_F(RuleRequirementExtractorTest, AMonthWithItsYearKeepsThatMonthsDates) {
  const Json march = Json::parse(R"([{"type": "filter", "column": "date", "op": ">=", "value": "2024-03-01"},
                                     {"type": "filter", "column": "date", "op": "<", "value": "2024-04-01"}])");
  EXPECT_EQ(extract("the total revenue in March 2024")["constraints"], march);
  EXPECT_EQ(extract("revenue by region in 2024 mar")["constraints"], march) << "a short form, the year first";
  EXPECT_EQ(extract("revenue by region in December 2024")["constraints"][1]["value"], "2025-01-01");
  EXPECT_EQ(extract("revenue by region in March")["constraints"], march)
      << "no year: the one March the dates reach (they run from 2024-01-05 to 2024-03-20)";
}

// A month or quarter with no year is the data's when its dates reach it in one year only;
// otherwise the question is refused, saying which years hold it (it was dropped before, and the
// answer covered every month).
TEST(RuleRequirementExtractor, APeriodWithNoYearIsTheDatasOrRefused) {
  const std::string csv = "day,sales\n2023-02-10,1\n2023-03-05,2\n2024-03-07,3\n2024-05-01,4\n";
  const core::Result<ExtractedRequirements> two = extract_from("sales.csv", csv, "total sales in March");
  ASSERT_FALSE(two.has_value());
  EXPECT_EQ(two.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(two.error().message,
            "the question names March without a year, and day holds March in 2023, 2024: say which, as in "
            "'March 2024'");
  const std::string early = "day,sales\n2024-01-10,1\n2024-03-05,2\n";
  const core::Result<ExtractedRequirements> none = extract_from("sales.csv", early, "total sales for Q3");
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().message,
            "the question names Q3 without a year, and day runs from 2024-01-10 to 2024-03-05, which holds no Q3");
  EXPECT_EQ(requirements_from("sales.csv", csv, "total sales for Q4")["constraints"][0]["value"], "2023-10-01")
      << "the dates run through Q4 2023 alone (no row there: the run says so)";
  EXPECT_EQ(requirements_from("sales.csv", csv, "total sales since January")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "day", "op": ">=", "value": "2024-01-01"}])"))
      << "the dates start on 2023-02-10: January is in 2024 alone";
  EXPECT_EQ(requirements_from("sales.csv", csv, "which days may have sales above 2")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "sales", "op": ">", "value": 2}])"))
      << "'may' after no period link is no month";
}

TEST_F(RuleRequirementExtractorTest, ADateColumnNamedOnceForItsPeriodIsNoKey) {
  const std::string csv = "name,hire_date,salary\nAda,1987-08-03,100\nBo,1987-08-20,200\nCy,1990-01-02,300\n";
  const Json one = requirements_from("employees.csv", csv, "How many employees were hired in August 1987?");
  EXPECT_EQ(one["group_by"], Json::array());
  EXPECT_EQ(one["time"]["column"], nullptr) << "one count of the month";
  EXPECT_EQ(one["constraints"][0], Json::parse(R"({"type": "filter", "column": "hire_date", "op": ">=", "value": "1987-08-01"})"));
  EXPECT_EQ(extract("the daily revenue in March 2024")["time"], Json::parse(R"({"column": "date", "grain": "day"})"));
  EXPECT_EQ(requirements_from("employees.csv", csv, "the number of quarterly hires in 1987")["time"],
            Json::parse(R"({"column": "hire_date", "grain": "quarter"})"))
      << "a grain keeps the date column";
}

TEST_F(RuleRequirementExtractorTest, AComparativeComparesTheColumnItNames) {
  const std::string csv = "name,age,height,weight,price\nAda,31,180,80,10\nBo,19,195,90,30\nCy,45,170,70,20\n";
  const auto filter = [](const char* column, const char* op, int value) {
    return Json::array({Json{{"type", "filter"}, {"column", column}, {"op", op}, {"value", value}}});
  };
  EXPECT_EQ(requirements_from("people.csv", csv, "the average weight of people taller than 190")["constraints"],
            filter("height", ">", 190));
  EXPECT_EQ(requirements_from("people.csv", csv, "how many people are older than 20?")["constraints"],
            filter("age", ">", 20));
  EXPECT_EQ(requirements_from("people.csv", csv, "the average weight of people younger than 30")["constraints"],
            filter("age", "<", 30));
  EXPECT_EQ(requirements_from("people.csv", csv, "the names of people cheaper than 25 dollars")["constraints"],
            filter("price", "<", 25));
}

TEST_F(RuleRequirementExtractorTest, AGroupNamedByTheWordsOfAnIdColumnGroupsByIt) {
  const std::string csv = "employee_id,name,salary,department_id\n1,Ada,100,10\n2,Bo,200,10\n3,Cy,300,20\n";
  EXPECT_EQ(requirements_from("employees.csv", csv, "the highest salary in each department")["group_by"],
            Json::parse(R"(["department_id"])"));
  EXPECT_EQ(requirements_from("employees.csv", csv, "the average salary by department")["group_by"],
            Json::parse(R"(["department_id"])"));
  EXPECT_EQ(requirements_from("employees.csv", csv, "the salary of the employees")["group_by"], Json::array())
      << "the table's own rows, not a key";
  const std::string orders = "order_id,region,revenue\n1,West,10\n2,East,20\n3,West,30\n";
  EXPECT_EQ(requirements_from("sales.csv", orders, "the average revenue per order")["group_by"], Json::array())
      << "one row per order: each row, no key";
}

TEST_F(RuleRequirementExtractorTest, ADecimalThresholdKeepsItsFraction) {
  EXPECT_EQ(extract("revenue by region for sales with revenue above 99.5")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": ">", "value": 99.5}])"));
  EXPECT_EQ(extract("revenue by region for sales with revenue between 60.25 and 120.5")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "between", "value": [60.25, 120.5]}])"));
  EXPECT_EQ(extract("revenue by region for sales with revenue above 200 or below 70.5")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "revenue", "op": "not_between", "value": [70.5, 200]}])"));
}

TEST_F(RuleRequirementExtractorTest, ANumberPastTheIntegerRangeIsNotALimit) {
  const Json json = extract("top 99999999999999999999999 regions by revenue");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["revenue"])"));
  EXPECT_EQ(json["constraints"], Json::array());
}

// A small staff table for the filter and grouping rules.
Json staff_requirements(const std::string& question) {
  return requirements_from("staff.csv",
                           "staff_id,Name,Sex,City,Position,Age,Salary,Level,Goals,dept_code,address\n"
                           "11,Ann,F,Paris,Defender,30,5000.5,3,1,D1,12 Main St TN\n"
                           "12,Bob,M,Rome,Keeper,40,6000.5,5,0,D2,4 Oak Ave CA\n"
                           "13,Cid,M,Paris,Defender,35,5500.5,4,3,D1,9 Elm Rd TN\n"
                           "14,Dee,F,Oslo,Forward,28,4000.5,2,7,D3,1 Pine Ln NY\n",
                           question);
}

TEST(RuleRequirementExtractor, AnInitialAndAWordNameAnAbbreviatedColumn) {
  const std::string csv = "StuID,LName,Fname,Age\n1,Smith,Ann,20\n2,Kim,Bob,21\n3,Lee,Cid,20\n";

  EXPECT_EQ(requirements_from("student.csv", csv, "the number of students for each last name")["group_by"],
            Json::parse(R"(["LName"])"));
  EXPECT_EQ(requirements_from("student.csv", csv, "the number of students for each first name")["group_by"],
            Json::parse(R"(["Fname"])"));
}

TEST(RuleRequirementExtractor, IdsOfTheTablesRowsNameItsOwnKey) {
  const std::string csv = "Account_ID,Statement_ID,Account_Details\n7,57,25.5\n61,192,127.9\n98,57,147.9\n";

  EXPECT_EQ(requirements_from("accounts.csv", csv, "a scatter chart of the ids and details of all accounts")["metrics"],
            Json::parse(R"(["Account_ID", "Account_Details"])"));
}

TEST(RuleRequirementExtractor, BinningAColumnOfYearsMakesItTheTimeColumn) {
  const std::string csv = "Minister,Took_office\nAnn,1957\nBob,1958\nCid,1960\n";

  const Json binned = requirements_from("party.csv", csv, "how many parties by took office, binning the took office into weekday interval");
  const Json plain = requirements_from("party.csv", csv, "how many parties by took office");

  EXPECT_EQ(binned["time"]["column"], "Took_office");
  EXPECT_EQ(binned["group_by"], Json::array());
  EXPECT_EQ(plain["time"]["column"], nullptr);
  EXPECT_EQ(plain["group_by"], Json::parse(R"(["Took_office"])"));
}

TEST(RuleRequirementExtractor, AValueBeyondTheFiveMostFrequentIsStillAFilter) {
  std::string csv = "city,sales\n";
  for (const char* city : {"Paris", "Paris", "Rome", "Rome", "Oslo", "Oslo", "Lima", "Lima", "Kyiv", "Kyiv", "Quito"}) {
    csv += std::string(city) + ",1\n";
  }

  EXPECT_EQ(requirements_from("shops.csv", csv, "total sales in Quito")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "city", "op": "=", "value": "Quito"}])"));
}

TEST(RuleRequirementExtractor, TheFirstWordOfAValueBeforeItsColumnNamesIt) {
  const std::string csv = "category,revenue\nOffice Supplies,1\nHome Office,2\nFurniture,3\nOffice Supplies,4\n";

  EXPECT_EQ(requirements_from("sales.csv", csv, "revenue for the Office category")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "category", "op": "=", "value": "Office Supplies"}])"));
  EXPECT_EQ(requirements_from("sales.csv", csv, "revenue for Office by category")["constraints"], Json::array())
      << "the word alone, not right before its column, names no value";
}

TEST(RuleRequirementExtractor, ValuesComparedWithinAGroupSplitItAfterTheGroup) {
  const std::string faculty = "FacID,Rank,Sex\n1,Professor,F\n2,AsstProf,M\n3,Professor,M\n4,Instructor,F\n";

  EXPECT_EQ(requirements_from("faculty.csv", faculty, "the number of male and female faculty for each rank")["group_by"],
            Json::parse(R"(["Rank", "Sex"])"))
      << "ranks along the x axis, a series per sex";
  EXPECT_EQ(requirements_from("faculty.csv", faculty, "the number of male and female faculty")["group_by"],
            Json::parse(R"(["Sex"])"));
}

TEST(RuleRequirementExtractor, EitherOfTwoYearsIsAListOnTheYearColumn) {
  const std::string csv = "Title,Year,Director\nA,1999,Ann\nB,2000,Bob\nC,2001,Ann\nD,1999,Cid\n";

  EXPECT_EQ(requirements_from("movie.csv", csv, "the number of movies per director in either 1999 or 2000")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Year", "op": "in", "value": [1999, 2000]}])"));
  EXPECT_EQ(requirements_from("movie.csv", csv, "the number of movies per director in the year 1999 or 2000")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Year", "op": "in", "value": [1999, 2000]}])"));
}

TEST(RuleRequirementExtractor, AYearAfterAComparisonWordComparesTheYearOrDateColumn) {
  const std::string movies = "Title,Year,Director\nA,1927,Ann\nB,1930,Bob\nC,1999,Ann\nD,2001,Cid\n";
  const std::string orders = "order_id,placed,amount\n1,1998-05-01,10\n2,2001-03-02,20\n3,2003-07-09,30\n";

  EXPECT_EQ(requirements_from("movie.csv", movies, "how many movies were released after 1928")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Year", "op": ">", "value": 1928}])"))
      << "1928 is no year of the data; a comparison needs none";
  EXPECT_EQ(requirements_from("movie.csv", movies, "movies per director since 1999")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Year", "op": ">=", "value": 1999}])"));
  EXPECT_EQ(requirements_from("orders.csv", orders, "total amount of orders placed after 1999")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "placed", "op": ">=", "value": "2000-01-01"}])"));
  EXPECT_EQ(requirements_from("orders.csv", orders, "total amount of orders before 2002")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "placed", "op": "<", "value": "2002-01-01"}])"));
  EXPECT_EQ(requirements_from("orders.csv", orders, "total amount of orders placed before 2002-06-21")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "placed", "op": "<", "value": "2002-06-21"}])"))
      << "a date, not its year";
}

TEST(RuleRequirementExtractor, AValueSeveralColumnsHoldFiltersTheColumnTheQuestionPointsTo) {
  const std::string flights =
      "flight_no,origin,destination,price\n1,Los Angeles,Chicago,300\n2,Chicago,Los Angeles,250\n"
      "3,Los Angeles,Boston,400\n4,Boston,Chicago,150\n";
  const auto filters = [&](const std::string& question) {
    return requirements_from("flight.csv", flights, question)["constraints"];
  };

  EXPECT_EQ(filters("average price of flights departing from Los Angeles"),
            Json::parse(R"([{"type": "filter", "column": "origin", "op": "=", "value": "Los Angeles"}])"));
  EXPECT_EQ(filters("average price of flights arriving in Los Angeles"),
            Json::parse(R"([{"type": "filter", "column": "destination", "op": "=", "value": "Los Angeles"}])"));
  EXPECT_EQ(filters("how many flights from Boston to Chicago"),
            Json::parse(R"([{"type": "filter", "column": "origin", "op": "=", "value": "Boston"},
                            {"type": "filter", "column": "destination", "op": "=", "value": "Chicago"}])"))
      << "each value by the cue nearest before it";
  EXPECT_EQ(filters("average price of flights with destination Boston"),
            Json::parse(R"([{"type": "filter", "column": "destination", "op": "=", "value": "Boston"}])"))
      << "the column named beside the value";

  const std::string wines = "Name,Grape,Score\nChardonnay,Chardonnay,90\nRiverbend,Chardonnay,85\n"
                            "Hilltop,Merlot,88\nOak Run,Syrah,91\nStone,Merlot,80\n";
  EXPECT_EQ(requirements_from("wine.csv", wines, "the average score of Chardonnay wines")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Grape", "op": "=", "value": "Chardonnay"}])"))
      << "no cue: the column with fewer values";
}

TEST(RuleRequirementExtractor, ASuperlativeThatNamesItsColumnRanksTheRowsByIt) {
  const std::string coasters = "Coaster_ID,Name,Length,Height,Speed\n1,The Voyage,6442,163,67\n2,Hades,4726,136,70\n"
                               "3,Bullet,3236,96,51\n4,Dragon,3914,105,55\n";
  const auto constraints = [&](const std::string& question) {
    return requirements_from("roller_coaster.csv", coasters, question)["constraints"];
  };

  EXPECT_EQ(constraints("Which roller coaster is the fastest?"), sorted_on("Speed", "desc", 1));
  EXPECT_EQ(constraints("What are the 3 longest roller coasters?"), sorted_on("Length", "desc", 3));
  EXPECT_EQ(constraints("the two slowest coasters"), sorted_on("Speed", "asc", 2));
  EXPECT_EQ(constraints("What is the name of the tallest roller coaster?"), sorted_on("Height", "desc", 1))
      << "the rows named after the superlative; 'the name' is no prefix of the value 'The Voyage'";

  const std::string staff = "id,name,salary\n1,Ann,5000\n2,Bob,7000\n3,Cid,6000\n";
  EXPECT_EQ(requirements_from("staff.csv", staff, "Who is the highest-paid staff member?")["constraints"],
            sorted_on("salary", "desc", 1))
      << "'paid' names salary; the ranking word before it ranks it";
}

TEST(RuleRequirementExtractor, AValueWordNamesAValueAndAValueMatchesByStem) {
  const Json male = staff_requirements("how many male staff are there in each city");
  const Json not_defenders = staff_requirements("count the staff who are not defenders by city");

  EXPECT_EQ(male["constraints"], Json::parse(R"([{"type": "filter", "column": "Sex", "op": "=", "value": "M"}])"));
  EXPECT_EQ(male["group_by"], Json::parse(R"(["City"])"));
  EXPECT_EQ(not_defenders["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Position", "op": "!=", "value": "Defender"}])"));
}

TEST(RuleRequirementExtractor, ValuesNamedTogetherGroupOrFormAList) {
  const Json compared = staff_requirements("the average age for male and female staff");
  const Json either = staff_requirements("count the staff in Paris or Rome by position");

  EXPECT_EQ(compared["constraints"], Json::array());
  EXPECT_EQ(compared["group_by"], Json::parse(R"(["Sex"])"));
  EXPECT_EQ(either["constraints"],
            Json::parse(R"([{"type": "filter", "column": "City", "op": "in", "value": ["Paris", "Rome"]}])"));
}

TEST(RuleRequirementExtractor, ATextFilterKeepsTheListedColumns) {
  const Json contains = staff_requirements("name and salary of staff whose address contains TN");
  const Json without = staff_requirements("name and age of staff without the letter B in their names");

  EXPECT_EQ(contains["constraints"],
            Json::parse(R"([{"type": "filter", "column": "address", "op": "contains", "value": "TN"}])"));
  EXPECT_EQ(contains["metrics"], Json::parse(R"(["Name", "Salary"])"));
  EXPECT_EQ(without["constraints"], Json::parse(R"([{"type": "filter", "column": "Name", "op": "not_contains", "value": "B"}])"));
  EXPECT_EQ(without["metrics"], Json::parse(R"(["Name", "Age"])")) << "a column named again in a filter is still listed";
}

TEST(RuleRequirementExtractor, AnyNumericColumnComparesWithANumberOnEitherSide) {
  EXPECT_EQ(staff_requirements("name and level of staff whose level is higher than 3")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Level", "op": ">", "value": 3}])"));
  EXPECT_EQ(staff_requirements("count the staff whose level is 4 by city")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Level", "op": "=", "value": 4}])"));
  EXPECT_EQ(staff_requirements("count the staff with at least 2 goals by city")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Goals", "op": ">=", "value": 2}])"));
}

TEST(RuleRequirementExtractor, ACountedColumnIsNotAKeyBesideAGroupedOne) {
  EXPECT_EQ(staff_requirements("how many positions does each city have")["group_by"], Json::parse(R"(["City"])"));
  EXPECT_EQ(staff_requirements("the number of staff in each department")["group_by"], Json::parse(R"(["dept_code"])"))
      << "a synonym names the distinctive word of a column";
}

TEST(RuleRequirementExtractor, AMeasureAfterAndDoesNotContinueAGrouping) {
  const Json json = staff_requirements("list each city and the salary");

  EXPECT_EQ(json["group_by"], Json::parse(R"(["City"])"));
  EXPECT_EQ(json["metrics"], Json::parse(R"(["Salary"])"));
}

TEST_F(RuleRequirementExtractorTest, ADateCountedBesideAGroupIsNoTimeColumn) {
  const Json json = extract("the number of dates by region");

  EXPECT_EQ(json["time"]["column"], Json());
  EXPECT_EQ(json["group_by"], Json::parse(R"(["region"])"));
}

TEST_F(RuleRequirementExtractorTest, VersusBetweenTwoColumnsSetsAxesAndComparesNothing) {
  const Json json = extract("a scatter chart of units versus revenue");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["units", "revenue"])"));
  EXPECT_EQ(json["analysis"], Json::parse(R"(["correlation"])"));
}

TEST(RuleRequirementExtractor, AQuotedValueAndAnAbbreviatedColumnAreFound) {
  const Json quoted = staff_requirements("count the staff whose position is not \"Keeper\" by city");
  const Json correlated = staff_requirements("the correlation between age and salary of staff whose position is \"Forward\"");

  EXPECT_EQ(quoted["constraints"], Json::parse(R"([{"type": "filter", "column": "Position", "op": "!=", "value": "Keeper"}])"));
  EXPECT_EQ(correlated["metrics"], Json::parse(R"(["Age", "Salary"])")) << "a column named once, in a filter, is no axis";
}

TEST_F(RuleRequirementExtractorTest, ADateComparedWithADateIsAFilterAndTopKOfACountRanksTheCount) {
  EXPECT_EQ(extract("how many sales per region with a date before 2024-03-01")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "date", "op": "<", "value": "2024-03-01"}])"));
  EXPECT_EQ(extract("the top 2 regions by number of orders")["constraints"],
            Json::parse(R"([{"type": "sort", "column": "count", "direction": "desc"}, {"type": "limit", "n": 2}])"));
}

TEST(RuleRequirementExtractor, AColumnAfterAnAggregationPhraseIsAMetric) {
  const Json json = staff_requirements("the sum of staff id for each city");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["staff_id"])"));
  EXPECT_EQ(json["group_by"], Json::parse(R"(["City"])"));
}

TEST(RuleRequirementExtractor, IdsNameTheOnlyIdColumnAndAColumnOnlyFilteredIsNoMetric) {
  EXPECT_EQ(staff_requirements("the names and ids of staff")["metrics"], Json::parse(R"(["Name", "staff_id"])"));
  const Json filtered = staff_requirements("how many staff in each city have a salary higher than 5000");
  EXPECT_EQ(filtered["metrics"], Json::array());
  EXPECT_EQ(filtered["group_by"], Json::parse(R"(["City"])"));
}

TEST(RuleRequirementExtractor, AYesNoColumnNamedByPartOfItsNameKeepsItsYesRows) {
  const std::string csv = "name,age,weight,abandoned_yn\nRex,3,10.5,1\nBo,5,7.2,0\nKay,2,4.1,1\nMo,4,6.0,0\n";

  const Json filtered = requirements_from("dogs.csv", csv, "the age and weight of the dogs who have been abandoned");
  EXPECT_EQ(filtered["constraints"],
            Json::parse(R"([{"type": "filter", "column": "abandoned_yn", "op": "=", "value": 1}])"));
  EXPECT_EQ(filtered["metrics"], Json::parse(R"(["age", "weight"])"));
  const Json grouped = requirements_from("dogs.csv", csv, "the average age for each abandoned yn");
  EXPECT_EQ(grouped["constraints"], Json::array());
  EXPECT_EQ(grouped["group_by"], Json::parse(R"(["abandoned_yn"])"));
}

TEST(RuleRequirementExtractor, TheColumnTheQuestionPutsOnTheXAxisIsTheFirstKey) {
  const std::string csv = "grape,winery,price\nMerlot,Alpha,10\nSyrah,Beta,20\nMerlot,Beta,15\nSyrah,Alpha,30\n";

  EXPECT_EQ(requirements_from("wine.csv", csv, "count the grape and winery, the x-axis is winery")["group_by"],
            Json::parse(R"(["winery", "grape"])"));
  EXPECT_EQ(requirements_from("wine.csv", csv, "count the grape and winery with winery on the x axis")["group_by"],
            Json::parse(R"(["winery", "grape"])"));
  EXPECT_EQ(requirements_from("wine.csv", csv, "count the grape and winery")["group_by"],
            Json::parse(R"(["grape", "winery"])"));
}

TEST(RuleRequirementExtractor, AColumnNameSplitByWhoseStillNamesTheColumn) {
  const Json json = requirements_from("logs.csv", "log_id,problem_id,status\n1,10,open\n2,11,closed\n3,10,closed\n",
                                      "count the status for the problem whose id is 10");

  EXPECT_EQ(json["constraints"],
            Json::parse(R"([{"type": "filter", "column": "problem_id", "op": "=", "value": 10}])"));
}

TEST(RuleRequirementExtractor, AWordThatNamesTheTableNamesItsRows) {
  const Json json = requirements_from("aircraft.csv", "Aircraft,Description\nA1,Light utility\nA2,Heavy lift\nA3,Light utility\n",
                                      "What are the descriptions for the aircraft, and count them");

  EXPECT_EQ(json["group_by"], Json::parse(R"(["Description"])"));
}

TEST(RuleRequirementExtractor, AValueWrittenShortIsNamedSpelledOut) {
  const std::string faculty = "FacID,Rank,Sex,Degree\n1,Professor,F,Ph.D.\n2,AsstProf,M,MSc\n3,Professor,M,Ph.D.\n"
                              "4,AsstProf,F,MSc\n5,Instructor,M,MSc\n6,Professor,F,Ph.D.\n";

  EXPECT_EQ(requirements_from("faculty.csv", faculty, "the number of male and female assistant professors")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Rank", "op": "=", "value": "AsstProf"}])"))
      << "the longer value wins over Professor inside it";
  EXPECT_EQ(requirements_from("faculty.csv", faculty, "how many faculty have a PhD by rank")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Degree", "op": "=", "value": "Ph.D."}])"));
  EXPECT_EQ(requirements_from("faculty.csv", faculty, "how many professors by sex")["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Rank", "op": "=", "value": "Professor"}])"));
}

TEST(RuleRequirementExtractor, AColumnNamedAgainInItsQuotedValueIsOnlyAFilter) {
  const Json json = requirements_from(
      "mountain.csv", "Name,Height,Prominence,Range\nKibo,5895,5885,Kilimanjaro\nBatian,5199,3825,Mount Kenya\n"
                      "Satima,3999,2081,Aberdare Range\nMawenzi,5148,850,Kilimanjaro\n",
      "the correlation between the height and prominence of mountains which do not belong to the range 'Aberdare Range'");

  EXPECT_EQ(json["metrics"], Json::parse(R"(["Height", "Prominence"])"));
  EXPECT_EQ(json["constraints"],
            Json::parse(R"([{"type": "filter", "column": "Range", "op": "!=", "value": "Aberdare Range"}])"));
}

TEST(RuleRequirementExtractor, OneMeasureNamedForEachRowIsDrawnAgainstTheRowsNames) {
  const std::string editors = "Editor_ID,Name,Age\n1,Kamila,34\n2,Anna,35\n3,Marek,21\n4,Piotr,43\n";
  const Json compared = requirements_from("editor.csv", editors,
                                          "Compare each editors' ages using a bar chart, list by the x axis in descending");
  const Json averaged = requirements_from("editor.csv", editors, "What is the average age of the editors?");
  const Json nameless = requirements_from("editor.csv", "Editor_ID,City,Age\n1,Lodz,34\n2,Opole,35\n3,Lodz,21\n",
                                          "Compare each editors' ages using a bar chart");

  EXPECT_EQ(compared["metrics"], Json::parse(R"(["Name", "Age"])"));
  EXPECT_EQ(compared["constraints"], Json::parse(R"([{"type": "sort", "column": "Name", "direction": "desc"}])"))
      << "the x axis is the names";
  EXPECT_EQ(averaged["metrics"], Json::parse(R"(["Age"])")) << "an aggregation word asks for one number";
  for (const char* question : {"What is the maximum age of the editors?", "the oldest age of the editors"}) {
    EXPECT_EQ(requirements_from("editor.csv", editors, question)["metrics"], Json::parse(R"(["Age"])")) << question;
  }
  EXPECT_EQ(nameless["metrics"], Json::parse(R"(["Age"])")) << "no column names the rows";
}

}  // namespace
}  // namespace planfirst::autoviz

namespace planfirst::autoviz {
namespace {

// Requirements for `question` over a table made from `csv`.
core::Json extract_on(const std::string& csv, const std::string& question) {
  return requirements_from("t.csv", csv, question);
}

TEST(RuleRequirementExtractorWordNet, AWordNothingElseMatchesNamesAColumnThroughWordNet) {
  const core::Json requirements =
      extract_on("region,revenue\nWest,10\nEast,20\nWest,5\n", "total revenue by area");

  EXPECT_EQ(requirements["group_by"], core::Json::array({"region"}));
}

TEST(RuleRequirementExtractorWordNet, AColumnWordThatIsNoWordNamesTheWordsItAbbreviates) {
  const core::Json abbreviated =
      extract_on("cust_name,amt\nAda,10\nBo,20\nAda,5\n", "the total amount per customer name");
  const core::Json word = extract_on("age,city\n30,Oslo\n41,Rome\n30,Oslo\n", "the number of agents per city");

  EXPECT_EQ(abbreviated["group_by"], core::Json::array({"cust_name"}));
  EXPECT_EQ(abbreviated["metrics"], core::Json::array({"amt"}));
  EXPECT_EQ(word["metrics"], core::Json::array()) << "age is a word: it abbreviates no agents";
}

TEST(RuleRequirementExtractorWordNet, AnExactColumnWinsOverAWordNetSynonym) {
  const core::Json requirements =
      extract_on("state,country,revenue\nOhio,US,10\nBavaria,DE,20\nOhio,US,5\n", "total revenue by country");

  EXPECT_EQ(requirements["group_by"], core::Json::array({"country"}));
}

TEST(RuleRequirementExtractorWordNet, AWordOfAValueInTheDataIsNotReadAsAColumn) {
  const core::Json requirements = extract_on(
      "name,country,year_join\nAda,United States,2001\nBo,France,2003\nCy,United States,2003\n",
      "count of artists by year_join who are not from the United States");

  EXPECT_EQ(requirements["group_by"], core::Json::array({"year_join"}));
  EXPECT_EQ(requirements["constraints"][0]["column"], "country") << requirements;
}

}  // namespace
}  // namespace planfirst::autoviz
