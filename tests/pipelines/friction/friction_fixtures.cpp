#include "pipelines/friction/friction_fixtures.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/asset_store.hpp"

namespace planfirst::friction::testing {

void generate_contacts(const std::filesystem::path& out, long rows, std::uint64_t seed) {
  const std::string command = std::string(PLANFIRST_BINARY_DIR) + "/examples/contacts_generator '" +
                              out.string() + "' " + std::to_string(rows) + " " + std::to_string(seed);
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

const contracts::ContractRegistry& shipped_contracts() {
  static const contracts::ContractRegistry registry = [] {
    core::Result<contracts::ContractRegistry> loaded = contracts::ContractRegistry::load(core::AssetStore());
    if (!loaded) throw std::runtime_error(loaded.error().describe());
    return std::move(*loaded);
  }();
  return registry;
}

graph::CompiledGraph friction_graph() {
  core::Result<std::shared_ptr<const FrictionServices>> services =
      FrictionServices::load(core::AssetStore(), false);
  if (!services) throw std::runtime_error(services.error().describe());
  core::Result<graph::CompiledGraph> graph = build_friction_graph(std::move(*services), shipped_contracts());
  if (!graph) throw std::runtime_error(graph.error().describe());
  return std::move(*graph);
}

namespace {

graph::RunnerOptions stored_in(graph::Checkpointer& store) {
  graph::RunnerOptions options;
  options.checkpointer = &store;
  return options;
}

}  // namespace

MemoryRunner::MemoryRunner() : runner(friction_graph(), stored_in(store)) {}

core::Json run_input(const std::filesystem::path& data, const std::filesystem::path& out, bool critique) {
  return {{"dataset_path", data.string()}, {"output_dir", out.string()}, {"critique_enabled", critique}};
}

Completed run_to_end(graph::Runner& runner, const std::string& thread, const core::Json& input,
                     const std::string& answer) {
  Completed completed;
  core::Result<graph::RunResult> result = runner.run(thread, graph::JsonValue(input));
  for (int i = 0; i < 10 && result && result->status == graph::RunStatus::kInterrupted; ++i) {
    completed.interrupts.push_back(result->interrupt_node);
    result = runner.resume(thread, result->checkpoint_id, answer);
  }
  if (!result) throw std::runtime_error(result.error().describe());
  completed.result = std::move(*result);
  return completed;
}

graph::RunResult pause_at(graph::Runner& runner, const std::string& thread, const core::Json& input,
                          const std::string& node) {
  core::Result<graph::RunResult> result = runner.run(thread, graph::JsonValue(input));
  for (int i = 0; i < 10 && result && result->status == graph::RunStatus::kInterrupted; ++i) {
    if (result->interrupt_node == node) return std::move(*result);
    result = runner.resume(thread, result->checkpoint_id, "approve");
  }
  if (!result) throw std::runtime_error(result.error().describe());
  throw std::runtime_error("the run ended before " + node + " asked");
}

const std::map<std::string, std::string>& generated_reasons() {
  static const std::map<std::string, std::string> kReasons = {{"app_login", "Login issue"},
                                                              {"payment_page", "Payment failed"},
                                                              {"password_reset", "Password reset"},
                                                              {"findability", "Website search"},
                                                              {"order_status", "Order status"},
                                                              {"technician", "Technician appointment"},
                                                              {"callback", "Callback missing"},
                                                              {"outage", "Outage report"},
                                                              {"bill_explanation", "Bill explanation"},
                                                              {"notification", "Notification confusion"},
                                                              {"late_fee", "Late fee"},
                                                              {"refund_rules", "Refund request"},
                                                              {"cancellation_fee", "Cancellation fee"}};
  return kReasons;
}

test_support::TempDir* SampleContactsTest::dir_ = nullptr;

void SampleContactsTest::SetUpTestSuite() {
  dir_ = new test_support::TempDir();
  generate_contacts(contacts(), kSampleRows);
}

void SampleContactsTest::TearDownTestSuite() {
  delete dir_;
  dir_ = nullptr;
}

std::filesystem::path SampleContactsTest::contacts() {
  return dir_->path() / "contacts.csv";
}

std::filesystem::path SampleContactsTest::out(const std::string& name) {
  return dir_->path() / name;
}

std::int64_t sql_integer(const std::string& sql) {
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
  if (!db) throw std::runtime_error(db.error().describe());
  core::Result<data::QueryResult> result = (*db)->query(sql);
  if (!result) throw std::runtime_error(result.error().describe() + " in " + sql);
  return result->at(0, 0).as_int();
}

DirectSql::DirectSql(const std::filesystem::path& csv) {
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
  if (!db) throw std::runtime_error(db.error().describe());
  db_ = std::move(*db);
  core::Result<void> loaded =
      db_->exec("CREATE TABLE contacts AS SELECT * FROM read_csv('" + csv.string() + "')");
  if (!loaded) throw std::runtime_error(loaded.error().describe());
}

std::int64_t DirectSql::integer(const std::string& sql) const {
  core::Result<data::QueryResult> result = db_->query(sql);
  if (!result) throw std::runtime_error(result.error().describe() + " in " + sql);
  return result->at(0, 0).as_int();
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace planfirst::friction::testing
