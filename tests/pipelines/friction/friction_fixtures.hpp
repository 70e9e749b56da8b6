// What the friction tests share: contacts files written by the example generator (a sample of a few
// thousand rows, or the full 300,000), the friction graph built from the shipped assets, and a
// runner that answers every checkpoint. Real DuckDB and real files throughout.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/json.hpp"
#include "data/duckdb_database.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/runner.hpp"
#include "pipelines/friction/friction_graph.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::friction::testing {

// Writes `rows` generated contacts to `out` (seed 20250101 unless given); fails the test if it cannot.
void generate_contacts(const std::filesystem::path& out, long rows, std::uint64_t seed = 20250101);

// A suite over one sample of kSampleRows generated contacts, written once for the whole suite.
class SampleContactsTest : public ::testing::Test {
 protected:
  static constexpr long kSampleRows = 20000;
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  static std::filesystem::path contacts();                    // the sample, a CSV file
  static std::filesystem::path out(const std::string& name);  // a folder of the suite's own

 private:
  static test_support::TempDir* dir_;
};

// The shipped contracts, loaded once per call.
const contracts::ContractRegistry& shipped_contracts();

// The friction graph from the shipped assets, without the SVG renderer.
graph::CompiledGraph friction_graph();

// A runner over friction_graph() whose checkpoints stay in memory.
struct MemoryRunner {
  MemoryRunner();
  graph::MemoryCheckpointer store;
  graph::Runner runner;
};

// The input state of a run on `data` writing into `out`.
core::Json run_input(const std::filesystem::path& data, const std::filesystem::path& out,
                     bool critique = true);

// Runs `thread` from `input`, answering each checkpoint with `answer`, until done or failed; records
// the interrupt nodes in order.
struct Completed {
  graph::RunResult result;
  std::vector<std::string> interrupts;
};
Completed run_to_end(graph::Runner& runner, const std::string& thread, const core::Json& input,
                     const std::string& answer = "approve");

// Runs `thread` from `input`, approving every checkpoint before the one `node` asks; returns that
// interrupt (fails the test when the run ends or fails first).
graph::RunResult pause_at(graph::Runner& runner, const std::string& thread, const core::Json& input,
                          const std::string& node);

// The generator's contact reason of each driver id ("app_login" -> "Login issue").
const std::map<std::string, std::string>& generated_reasons();

// One integer from a direct SQL statement on a fresh in-memory DuckDB.
std::int64_t sql_integer(const std::string& sql);

// Direct SQL on one CSV file, loaded once as the table `contacts` of an in-memory DuckDB.
class DirectSql {
 public:
  explicit DirectSql(const std::filesystem::path& csv);
  std::int64_t integer(const std::string& sql) const;  // the first column of the first row

 private:
  std::unique_ptr<data::DuckDbDatabase> db_;
};

// Every line of `file`; "" when it cannot be read.
std::string read_file(const std::filesystem::path& file);

}  // namespace planfirst::friction::testing
