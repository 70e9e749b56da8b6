// Runs tests/contracts/cases/*.json: for each shipped contract, values that must validate and values
// that must raise exactly the named violations, as (JSON pointer, keyword) pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"

namespace planfirst::contracts {
namespace {

using core::Json;
using Raised = std::set<std::pair<std::string, std::string>>;

std::filesystem::path cases_dir() {
  return std::filesystem::path(PLANFIRST_SOURCE_DIR) / "tests/contracts/cases";
}

std::vector<std::pair<std::string, Json>> case_files() {
  std::vector<std::pair<std::string, Json>> files;
  for (const auto& entry : std::filesystem::directory_iterator(cases_dir())) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    files.emplace_back(entry.path().filename().string(), Json::parse(in));
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return files;
}

ContractRegistry builtin_registry() {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  EXPECT_TRUE(registry.has_value()) << registry.error().describe();
  return std::move(*registry);
}

Raised raised_by(const ValidationReport& report) {
  Raised raised;
  for (const Violation& v : report.violations()) raised.emplace(v.pointer, v.keyword);
  return raised;
}

std::string show(const Raised& raised) {
  std::ostringstream out;
  for (const auto& [pointer, keyword] : raised) out << "  (\"" << pointer << "\", " << keyword << ")\n";
  return out.str();
}

TEST(ContractCases, EveryValidCaseValidates) {
  const ContractRegistry registry = builtin_registry();
  const auto files = case_files();

  for (const auto& [file, cases] : files) {
    const Contract* contract = registry.find(cases.at("contract").get<std::string>());
    ASSERT_NE(contract, nullptr) << file;
    for (const Json& c : cases.at("valid")) {
      const ValidationReport report = contract->validate(c.at("value"));

      EXPECT_TRUE(report.ok()) << file << ": " << c.at("name").get<std::string>() << "\n"
                               << report.describe();
    }
  }
}

TEST(ContractCases, EveryInvalidCaseRaisesExactlyTheNamedViolations) {
  const ContractRegistry registry = builtin_registry();
  const auto files = case_files();

  for (const auto& [file, cases] : files) {
    const Contract* contract = registry.find(cases.at("contract").get<std::string>());
    ASSERT_NE(contract, nullptr) << file;
    for (const Json& c : cases.at("invalid")) {
      Raised expected;
      for (const Json& r : c.at("raises"))
        expected.emplace(r.at(0).get<std::string>(), r.at(1).get<std::string>());

      const ValidationReport report = contract->validate(c.at("value"));

      EXPECT_EQ(raised_by(report), expected)
          << file << ": " << c.at("name").get<std::string>() << "\nexpected:\n"
          << show(expected) << "reported:\n"
          << report.describe();
    }
  }
}

TEST(ContractCases, EveryShippedContractHasValidAndInvalidCases) {
  const ContractRegistry registry = builtin_registry();
  std::set<std::string> covered;

  for (const auto& [file, cases] : case_files()) {
    if (!cases.at("valid").empty() && !cases.at("invalid").empty())
      covered.insert(cases.at("contract").get<std::string>());
  }

  for (const std::string& name : registry.names())
    EXPECT_TRUE(covered.contains(name)) << "no cases for " << name;
}

TEST(ContractCases, EveryViolationHasAPlainMessage) {
  const ContractRegistry registry = builtin_registry();

  for (const auto& [file, cases] : case_files()) {
    const Contract* contract = registry.find(cases.at("contract").get<std::string>());
    ASSERT_NE(contract, nullptr) << file;
    for (const Json& c : cases.at("invalid")) {
      const ValidationReport report = contract->validate(c.at("value"));
      for (const Violation& v : report.violations()) {
        EXPECT_FALSE(v.message.empty()) << file << ": " << v.describe();
        EXPECT_EQ(v.message.find("Failed to"), std::string::npos) << file << ": " << v.describe();
      }
    }
  }
}

}  // namespace
}  // namespace planfirst::contracts
