// The official JSON-Schema-Test-Suite, draft-07 (Debian package json-schema-test-suite), run through
// Contract::compile and Contract::validate. Files under optional/, refRemote.json and cases that
// $ref the draft-07 meta-schema need a fetch and are skipped; the test prints how many cases
// passed, failed and were skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "contracts/contract.hpp"

namespace planfirst::contracts {
namespace {

using core::Json;

constexpr const char* kSuiteDir = "/usr/share/json-schema-test-suite/tests/draft7";
constexpr int kRequiredPasses = 400;

// A "$ref" that points outside the schema's own document (to localhost:1234 or to the draft-07
// meta-schema), which would need a fetch.
bool needs_remote_ref(const Json& schema) {
  std::vector<std::string> ids;
  std::vector<std::string> refs;
  std::vector<const Json*> pending{&schema};
  while (!pending.empty()) {
    const Json* node = pending.back();
    pending.pop_back();
    if (node->is_object()) {
      if (auto id = node->find("$id"); id != node->end() && id->is_string())
        ids.push_back(id->get<std::string>());
      if (auto ref = node->find("$ref"); ref != node->end() && ref->is_string())
        refs.push_back(ref->get<std::string>());
    }
    if (node->is_structured()) {
      for (const Json& child : *node) pending.push_back(&child);
    }
  }
  return std::any_of(refs.begin(), refs.end(), [&](const std::string& ref) {
    if (!ref.starts_with("http://") && !ref.starts_with("https://")) return false;
    const std::string document = ref.substr(0, ref.find('#'));
    return std::none_of(ids.begin(), ids.end(),
                        [&](const std::string& id) { return id.substr(0, id.find('#')) == document; });
  });
}

TEST(SchemaTestSuite, PassesAtLeast400RequiredDraft7Cases) {
  if (!std::filesystem::is_directory(kSuiteDir))
    GTEST_SKIP() << kSuiteDir << " is missing: run scripts/bootstrap";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kSuiteDir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  int passed = 0;
  int skipped = 0;
  std::vector<std::string> failures;

  for (const auto& file : files) {
    std::ifstream in(file);
    const Json groups = Json::parse(in);
    for (const Json& group : groups) {
      const std::string where = file.filename().string() + ": " + group.at("description").get<std::string>();
      if (file.filename() == "refRemote.json" || needs_remote_ref(group.at("schema"))) {
        skipped += static_cast<int>(group.at("tests").size());
        continue;
      }
      core::Result<Contract> contract = Contract::compile(where, group.at("schema").dump());
      for (const Json& test : group.at("tests")) {
        const bool expected = test.at("valid").get<bool>();
        const bool actual = contract.has_value() && contract->validate(test.at("data")).ok();
        if (contract.has_value() && actual == expected) {
          ++passed;
        } else {
          failures.push_back(
              where + " / " + test.at("description").get<std::string>() +
              (contract.has_value() ? "" : " (schema did not compile: " + contract.error().message + ")"));
        }
      }
    }
  }

  std::cout << "JSON-Schema-Test-Suite draft7: " << passed << " passed, " << failures.size() << " failed, "
            << skipped << " skipped (remote refs)\n";
  for (const std::string& failure : failures) std::cout << "  failed: " << failure << "\n";
  EXPECT_GE(passed, kRequiredPasses);
}

}  // namespace
}  // namespace planfirst::contracts
