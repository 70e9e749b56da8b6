// The extractor's question -> requirements cases: each line of cases/*.jsonl is one question on
// one table of cases/tables.json, with the requirements fields it must give (by JSON pointer,
// exactly), the sizes of lists, or the error it must be refused with. One parameterised test runs
// them all; what cannot be written as data stays a TEST below.
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "contracts/contract_registry.hpp"
#include "core/wordnet_synonyms.hpp"
#include "data/dataset.hpp"
#include "data/table_profiler.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;

const std::filesystem::path kCaseDir =
    std::filesystem::path(PLANFIRST_SOURCE_DIR) / "tests/pipelines/autoviz/understand/cases";

// One line of a case file: {"name", "table", "question", "expect": {pointer: value},
// "expect_size": {pointer: n}, "error": {"code", "message", "message_contains": [...]}, "why"}.
struct ExtractionCase {
  std::string file;  // the case file, for failure messages
  Json json;
};

void PrintTo(const ExtractionCase& c, std::ostream* out) {
  *out << c.file << ": " << c.json["name"].get<std::string>();
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("missing case file " + path.string());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every case of every cases/*.jsonl, files in name order, lines in file order.
std::vector<ExtractionCase> load_cases() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kCaseDir)) {
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<ExtractionCase> cases;
  for (const std::filesystem::path& file : files) {
    std::istringstream lines(read_text(file));
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty()) cases.push_back({file.filename().string(), Json::parse(line)});
    }
  }
  return cases;
}

// The profile of the named table of cases/tables.json ({"file", "csv"}), profiled once.
const data::SchemaProfile& table_profile(const std::string& name) {
  static const Json tables = Json::parse(read_text(kCaseDir / "tables.json"));
  static std::map<std::string, data::SchemaProfile> profiles;
  if (auto it = profiles.find(name); it != profiles.end()) return it->second;
  if (!tables.contains(name)) throw std::runtime_error("no table " + name + " in tables.json");
  test_support::TempDir dir;
  auto dataset = data::open_dataset(
      dir.write(tables[name]["file"].get<std::string>(), tables[name]["csv"].get<std::string>()));
  if (!dataset) throw std::runtime_error(dataset.error().describe());
  auto profile = data::profile_table(*dataset->db, dataset->table);
  if (!profile) throw std::runtime_error(profile.error().describe());
  return profiles.emplace(name, std::move(*profile)).first->second;
}

const RuleRequirementExtractor& extractor() {
  static const RuleRequirementExtractor rules = [] {
    auto loaded = RuleRequirementExtractor::load(core::AssetStore());
    if (!loaded) throw std::runtime_error(loaded.error().describe());
    return std::move(*loaded);
  }();
  return rules;
}

// The note a case gives for the check at `key`, if any.
std::string why(const Json& c, const std::string& key) {
  return c.contains("why") && c["why"].contains(key) ? c["why"][key].get<std::string>() : std::string();
}

class RuleRequirementExtractorCase : public ::testing::TestWithParam<ExtractionCase> {};

TEST_P(RuleRequirementExtractorCase, GivesItsRequirementsOrItsError) {
  const Json& c = GetParam().json;
  const std::string question = c["question"];

  const core::Result<ExtractedRequirements> result = extractor().extract(question, table_profile(c["table"]));

  if (c.contains("error")) {
    const Json& error = c["error"];
    ASSERT_TRUE(error.contains("code") || error.contains("message") || error.contains("message_contains"))
        << GetParam().file << ": the case names no error to expect";
    ASSERT_FALSE(result.has_value()) << question << ": " << why(c, "error");
    if (error.contains("code")) {
      EXPECT_EQ(core::to_string(result.error().code), error["code"].get<std::string>());
    }
    if (error.contains("message")) {
      EXPECT_EQ(result.error().message, error["message"].get<std::string>());
    }
    for (const Json& part : error.value("message_contains", Json::array())) {
      EXPECT_NE(result.error().message.find(part.get<std::string>()), std::string::npos)
          << "'" << part.get<std::string>() << "' in: " << result.error().message;
    }
    return;
  }
  ASSERT_TRUE(result.has_value()) << question << ": " << result.error().describe();
  const Json actual = result->requirements.to_json();
  const Json expect = c.value("expect", Json::object());
  const Json sizes = c.value("expect_size", Json::object());
  ASSERT_FALSE(expect.empty() && sizes.empty()) << GetParam().file << ": the case states no expectation";
  for (const auto& [pointer, expected] : expect.items()) {
    const Json::json_pointer at(pointer);
    ASSERT_TRUE(actual.contains(at)) << pointer << " in " << actual.dump();
    EXPECT_EQ(actual.at(at), expected) << pointer << ": " << why(c, pointer);
  }
  for (const auto& [pointer, size] : sizes.items()) {
    const Json::json_pointer at(pointer);
    ASSERT_TRUE(actual.contains(at)) << pointer << " in " << actual.dump();
    EXPECT_EQ(actual.at(at).size(), size.get<std::size_t>()) << pointer << ": " << why(c, "size " + pointer);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, RuleRequirementExtractorCase, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<ExtractionCase>& info) {
                           return info.param.json["name"].get<std::string>();
                         });

// The requirements of `question` over the sales table of cases/tables.json.
Json sales_requirements(const std::string& question) {
  auto requirements = extractor().extract(question, table_profile("sales"));
  EXPECT_TRUE(requirements) << requirements.error().describe();
  return requirements ? requirements->requirements.to_json() : Json();
}

TEST(RuleRequirementExtractor, EveryResultMeetsTheRequirementsContract) {
  auto contracts = contracts::ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(contracts) << contracts.error().describe();
  const contracts::Contract* contract = contracts->find("requirements");
  ASSERT_NE(contract, nullptr);
  for (const char* question :
       {"get revenue totals by region and product type over time", "monthly revenue in the West",
        "top 3 product categories by units", "average units per region"}) {
    const auto report = contract->validate(sales_requirements(question));
    EXPECT_TRUE(report.ok()) << question << "\n" << report.describe();
  }
}

TEST(RuleRequirementExtractor, TheSameQuestionGivesTheSameBytes) {
  EXPECT_EQ(sales_requirements("average units per region over time").dump(),
            sales_requirements("average units per region over time").dump());
}

TEST(RuleRequirementExtractor, AQuestionThatIsNotUtf8IsRefusedNamingTheByte) {
  auto requirements = extractor().extract("revenue where region is 'We\xffst'", table_profile("sales"));

  ASSERT_FALSE(requirements);
  EXPECT_EQ(requirements.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(requirements.error().message.find("not valid UTF-8 at byte 27 (counting from 0)"),
            std::string::npos)
      << requirements.error().message;
}

TEST(RuleRequirementExtractor, AChartWordNamesNoColumnThroughWordNet) {
  test_support::TempDir dir;
  const auto csv =
      dir.write("sales.csv", "date,channel,revenue\n2024-01-05,Online,10\n2024-02-11,Retail,20\n");
  auto dataset = data::open_dataset(csv);
  ASSERT_TRUE(dataset) << dataset.error().describe();
  auto profile = data::profile_table(*dataset->db, dataset->table);
  ASSERT_TRUE(profile) << profile.error().describe();
  auto wordnet = core::WordNetSynonyms::open();
  if (!wordnet) GTEST_SKIP() << "no WordNet database: " << wordnet.error().describe();
  const std::vector<std::string> line_words = (*wordnet)->of("line");
  ASSERT_TRUE(std::binary_search(line_words.begin(), line_words.end(), "channel"))
      << "the case this test is about";
  auto extractor = RuleRequirementExtractor::load(core::AssetStore());
  ASSERT_TRUE(extractor);

  auto line = extractor->extract("monthly revenue as a line chart", *profile);
  auto channel = extractor->extract("monthly revenue per channel as a line chart", *profile);

  ASSERT_TRUE(line && channel);
  EXPECT_EQ(line->requirements.metrics, std::vector<std::string>{"revenue"})
      << "WordNet files line beside channel";
  EXPECT_EQ(channel->requirements.group_by, std::vector<std::string>{"channel"});
  const auto players =
      dir.write("player.csv", "name,occupation,votes\nAnn,Doctor,10\nBob,Farmer,20\nCid,Doctor,5\n");
  auto club = data::open_dataset(players);
  ASSERT_TRUE(club) << club.error().describe();
  auto club_profile = data::profile_table(*club->db, club->table);
  ASSERT_TRUE(club_profile) << club_profile.error().describe();
  auto work = extractor->extract("the total votes for each line of work", *club_profile);
  ASSERT_TRUE(work) << work.error().describe();
  EXPECT_EQ(work->requirements.group_by, std::vector<std::string>{"occupation"})
      << "a line of work is no chart";
}

}  // namespace
}  // namespace planfirst::autoviz
