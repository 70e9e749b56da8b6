#include "contracts/contract_registry.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/asset_store.hpp"

namespace planfirst::contracts {
namespace {

using core::Json;

// A folder of asset overrides under the system temp dir, removed when the test ends.
class OverrideDir {
 public:
  explicit OverrideDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("planfirst_contracts_" + name)) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_ / "contracts");
  }
  ~OverrideDir() { std::filesystem::remove_all(path_); }
  void write(const std::string& relative, const std::string& text) const {
    std::ofstream(path_ / relative) << text;
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

const Json kSeedStatusMetric =
    Json::parse(R"({"intent": "query_sprint_completion_rate", "request_type": "STATUS_METRIC",
    "track": "QUALITY", "required_sources": ["db"], "missing_info_questions": [],
    "expected_output_schema": "status_metric_v1_json"})");

TEST(ContractRegistry, LoadsEveryShippedContract) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());

  ASSERT_TRUE(registry.has_value()) << registry.error().describe();
  EXPECT_EQ(registry->names(),
            (std::vector<std::string>{"analyst_plan", "analytics_state", "friction_delta",
                                      "friction_discovery_answer", "friction_prep_answer", "friction_state",
                                      "friction_synthesis_answer", "intent", "node_delta", "plan_adaptation",
                                      "requirements", "retrieval_output"}));
  EXPECT_EQ(registry->origin("intent"), "builtin:contracts/intent.schema.json");
}

TEST(ContractRegistry, AnUnknownNameIsNotFoundAndTheErrorListsTheKnownOnes) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  core::Result<const Contract*> contract = registry->get("analyst_plann");

  ASSERT_FALSE(contract.has_value());
  EXPECT_EQ(contract.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(contract.error().message.find("known contracts: analyst_plan, analytics_state"),
            std::string::npos);
  EXPECT_EQ(registry->find("analyst_plann"), nullptr);
}

TEST(ContractRegistry, ShippedContractsCarryTheirNamedRules) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  const std::vector<ContractRule>& rules = registry->find("analyst_plan")->rules();

  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].name, "status_requires_db");
  EXPECT_EQ(rules[1].name, "status_forbids_doc");
  EXPECT_EQ(rules[2].name, "fast_has_no_questions");
}

TEST(ContractRegistry, TheAnalystRoleUsesTheAnalystPlanContract) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  core::Result<const Contract*> contract = registry->for_role("ANALYST");

  ASSERT_TRUE(contract.has_value()) << contract.error().describe();
  EXPECT_EQ((*contract)->name(), "analyst_plan");
}

TEST(ValidateRoleOutput, FailsTheSeedsStatusMetricPlanThatAddsDoc) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();
  Json plan = kSeedStatusMetric;
  plan["required_sources"] = {"db", "doc"};

  core::Result<ValidationReport> report = validate_role_output(*registry, "ANALYST", plan);

  ASSERT_TRUE(report.has_value()) << report.error().describe();
  ASSERT_EQ(report->violations().size(), 1u);
  EXPECT_EQ(report->violations()[0].describe(),
            "/required_sources/1 [status_forbids_doc] \"doc\" is forbidden for STATUS_METRIC requests");
}

TEST(ValidateRoleOutput, PassesTheSeedsGoodAnalystOutput) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  core::Result<ValidationReport> report = validate_role_output(*registry, "ANALYST", kSeedStatusMetric);

  ASSERT_TRUE(report.has_value()) << report.error().describe();
  EXPECT_TRUE(report->ok()) << report->describe();
}

TEST(ValidateRoleOutput, AnUnknownRoleIsNotFound) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  core::Result<ValidationReport> report = validate_role_output(*registry, "ARCHITECT", kSeedStatusMetric);

  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(report.error().message.find("ANALYST"), std::string::npos);
}

TEST(ContractRegistry, AnOverrideFileReplacesTheBuiltinContract) {
  const OverrideDir dir("override");
  dir.write("contracts/intent.schema.json",
            R"({"type": "object", "properties": {"primary": {"enum": ["only_this"]}}, "required": ["primary"],
                "additionalProperties": false})");

  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore(dir.path()));

  ASSERT_TRUE(registry.has_value()) << registry.error().describe();
  EXPECT_TRUE(registry->find("intent")->validate(Json::parse(R"({"primary": "only_this"})")).ok());
  EXPECT_EQ(registry->origin("intent"), (dir.path() / "contracts/intent.schema.json").string());
}

TEST(ContractRegistry, ABrokenOverrideIsRefusedNamingItsFile) {
  const OverrideDir dir("broken");
  dir.write("contracts/intent.schema.json", "{\"type\": ");

  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore(dir.path()));

  ASSERT_FALSE(registry.has_value());
  EXPECT_EQ(registry.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(registry.error().where, (dir.path() / "contracts/intent.schema.json").string());
}

TEST(ContractRegistry, ARoleNamingNoContractIsRefused) {
  const OverrideDir dir("roles");
  dir.write("contracts/roles.json",
            R"({"roles": {"ANALYST": "analyst_plan", "ARCHITECT": "architect_spec"}})");

  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore(dir.path()));

  ASSERT_FALSE(registry.has_value());
  EXPECT_NE(registry.error().message.find("role ARCHITECT names no known contract"), std::string::npos);
}

TEST(ContractRegistry, ThreadsShareOneRegistryAndGetTheSameReports) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();
  const Json bad = Json::parse(R"({"intent": "", "request_type": "STATUS_LIST", "track": "FAST",
      "required_sources": ["doc"], "missing_info_questions": ["q?"], "expected_output_schema": "Bad Id"})");
  const std::string expected = registry->find("analyst_plan")->validate(bad).describe();
  std::vector<std::string> seen(4);

  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) seen[t] = registry->find("analyst_plan")->validate(bad).describe();
    });
  }
  for (std::thread& thread : threads) thread.join();

  for (const std::string& report : seen) EXPECT_EQ(report, expected);
}

}  // namespace
}  // namespace planfirst::contracts
