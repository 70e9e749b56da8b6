// A fixture for the autoviz tool tests: an in-memory DuckDB, a scratch folder, a small CSV loaded
// through load_dataset, and helpers that run a tool and read its rows as "a|b|c" strings.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/duckdb_database.hpp"
#include "pipelines/autoviz/tools/tool_context.hpp"
#include "pipelines/autoviz/tools/tool_library.hpp"

namespace planfirst::autoviz {

// Five sales rows over three months; units has one gap.
inline constexpr const char* kSalesCsv =
    "date,region,product,units,revenue\n"
    "2024-01-05,North,A,1,10.5\n"
    "2024-01-20,South,B,2,20\n"
    "2024-02-03,North,B,3,30\n"
    "2024-02-17,South,A,,40\n"
    "2024-03-09,North,A,5,50\n";

class ToolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ =
        std::filesystem::temp_directory_path() / ("planfirst_tools_" + std::string(test->test_suite_name()) +
                                                  "_" + test->name() + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    db_ = std::move(*data::DuckDbDatabase::open(":memory:"));
    ctx_ = std::make_unique<ToolContext>(*db_, "", dir_ / "out");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `csv` to NAME.csv and loads it as the current relation.
  void load(const std::string& csv, const std::string& name = "sales") {
    const std::filesystem::path path = dir_ / (name + ".csv");
    std::ofstream(path, std::ios::binary) << csv;
    core::Result<ToolOutput> loaded = run("load_dataset", {{"path", path.string()}});
    ASSERT_TRUE(loaded.has_value()) << loaded.error().describe();
  }

  core::Result<ToolOutput> run(const std::string& tool, const core::Json& params) {
    return ToolLibrary::builtin().run(*ctx_, tool, params);
  }

  // The rows of a successful run's table; a failed run fails the test and gives no rows.
  std::vector<std::string> rows(const std::string& tool, const core::Json& params) {
    core::Result<ToolOutput> output = run(tool, params);
    EXPECT_TRUE(output.has_value()) << output.error().describe();
    if (!output || !output->table) return {};
    return rows_of(*output->table);
  }

  static std::vector<std::string> rows_of(const data::QueryResult& table) {
    std::vector<std::string> out;
    for (std::size_t r = 0; r < table.row_count(); ++r) {
      std::string row;
      for (std::size_t c = 0; c < table.column_count(); ++c)
        row += (c == 0 ? "" : "|") + table.at(r, c).to_string();
      out.push_back(row);
    }
    return out;
  }

  static std::vector<std::string> header_of(const data::QueryResult& table) {
    std::vector<std::string> names;
    for (const data::Column& column : table.columns()) names.push_back(column.name);
    return names;
  }

  std::filesystem::path dir_;
  std::unique_ptr<data::DuckDbDatabase> db_;
  std::unique_ptr<ToolContext> ctx_;
};

}  // namespace planfirst::autoviz
