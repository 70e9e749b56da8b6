// Structured answers at the friction graph's three checkpoints: column overrides at data_discovery,
// filters at data_prep, the report's focus at the synthesizer. Each re-runs its node and asks again,
// the figures that follow equal direct SQL on the data under the same choice, and a bad answer is
// refused naming its field while the run stays at its checkpoint.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "data/duckdb_database.hpp"
#include "pipelines/friction/friction_fixtures.hpp"

namespace planfirst::friction {
namespace {

using core::Json;
using testing::pause_at;
using testing::run_input;

class CheckpointAnswer : public testing::SampleContactsTest {};

// Answers `answer` at the open checkpoint and expects the same node to ask again.
graph::RunResult answer_again(graph::Runner& runner, const graph::RunResult& paused,
                              const std::string& answer) {
  core::Result<graph::RunResult> again = runner.resume("t1", paused.checkpoint_id, answer);
  if (!again) throw std::runtime_error(again.error().describe());
  EXPECT_EQ(again->status, graph::RunStatus::kInterrupted) << (again->error ? again->error->describe() : "");
  EXPECT_EQ(again->interrupt_node, paused.interrupt_node);
  return std::move(*again);
}

Json finish(graph::Runner& runner, graph::RunResult paused) {
  core::Result<graph::RunResult> result = std::move(paused);
  for (int i = 0; i < 5 && result && result->status == graph::RunStatus::kInterrupted; ++i)
    result = runner.resume("t1", result->checkpoint_id, "yes");
  if (!result) throw std::runtime_error(result.error().describe());
  EXPECT_EQ(result->status, graph::RunStatus::kDone);
  return result->state.json();
}

TEST_F(CheckpointAnswer, EachCheckpointMessageSaysWhatItAccepts) {
  testing::MemoryRunner memory;
  const Json input = run_input(contacts(), out("help"), false);

  const graph::RunResult discovery = pause_at(memory.runner, "t1", input, "data_discovery");
  const graph::RunResult prep = pause_at(memory.runner, "t2", input, "data_prep");
  const graph::RunResult synthesis = pause_at(memory.runner, "t3", input, "synthesizer");

  EXPECT_NE(discovery.message.find("Answer yes to continue, no to stop"), std::string::npos)
      << discovery.message;
  EXPECT_NE(discovery.message.find(R"({"columns": {"summary": "notes"}})"), std::string::npos);
  EXPECT_NE(prep.message.find(R"({"filters": {"channels": [")"), std::string::npos) << prep.message;
  EXPECT_NE(prep.message.find(R"("from": "2025-01-01")"), std::string::npos) << prep.message;
  EXPECT_NE(synthesis.message.find(R"({"focus": {"lenses": ["digital"], "top_drivers": 5}})"),
            std::string::npos)
      << synthesis.message;
}

TEST_F(CheckpointAnswer, FiltersAnsweredAtDataPrepGiveTheFiguresDirectSqlCounts) {
  testing::MemoryRunner memory;
  const graph::RunResult paused =
      pause_at(memory.runner, "t1", run_input(contacts(), out("filters")), "data_prep");

  const graph::RunResult again = answer_again(
      memory.runner, paused,
      R"({"filters": {"channels": ["chat", "email"], "from": "2025-02-01", "to": "2025-04-30"}})");
  const Json state = finish(memory.runner, again);

  const testing::DirectSql sql(contacts());
  const std::string where =
      " WHERE channel IN ('chat', 'email') AND contact_timestamp >= DATE '2025-02-01' AND contact_timestamp "
      "< DATE "
      "'2025-05-01'";
  const std::int64_t kept = sql.integer("SELECT count(*) FROM contacts" + where);
  EXPECT_EQ(again.state.json()["prep"]["rows_kept"], kept);
  EXPECT_EQ(again.state.json()["prep"]["outside_filters"], kSampleRows - kept);
  EXPECT_NE(
      again.message.find(R"(Filters: {"channels":["chat","email"],"from":"2025-02-01","to":"2025-04-30"})"),
      std::string::npos)
      << again.message;
  EXPECT_EQ(state["synthesis"]["total_contacts"], kept);
  ASSERT_FALSE(state["synthesis"]["drivers"].empty());
  for (const Json& driver : state["synthesis"]["drivers"]) {
    const std::string of =
        where + " AND contact_reason = '" + testing::generated_reasons().at(driver["id"]) + "'";
    EXPECT_EQ(driver["contacts"], sql.integer("SELECT count(*) FROM contacts" + of)) << driver["id"];
    EXPECT_EQ(driver["repeats"], sql.integer("SELECT count_if(repeat_contact) FROM contacts" + of))
        << driver["id"];
    EXPECT_EQ(driver["handle_seconds"], sql.integer("SELECT sum(handle_time_sec)::BIGINT FROM contacts" + of))
        << driver["id"];
  }
  EXPECT_EQ(state["filters"]["channels"], Json({"chat", "email"}));
}

TEST_F(CheckpointAnswer, AColumnOverrideAnsweredAtDataDiscoveryMapsTheFieldToThatColumn) {
  // A file with a second, stricter repeat flag beside the one the names map by default.
  const std::filesystem::path file = out("two_flags.csv");
  {
    core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
    ASSERT_TRUE(db);
    ASSERT_TRUE(
        (*db)->exec("COPY (SELECT *, repeat_contact AND transfers > 0 AS repeat_transferred FROM read_csv('" +
                    contacts().string() + "')) TO '" + file.string() + "' (HEADER)"));
  }
  testing::MemoryRunner memory;
  const graph::RunResult paused =
      pause_at(memory.runner, "t1", run_input(file, out("columns"), false), "data_discovery");
  ASSERT_EQ(paused.state.json()["dataset"]["mapping"]["columns"]["repeat"], "repeat_contact");

  const graph::RunResult again =
      answer_again(memory.runner, paused, R"({"columns": {"repeat": "repeat_transferred"}})");
  const Json state = finish(memory.runner, again);

  EXPECT_EQ(again.state.json()["dataset"]["mapping"]["columns"]["repeat"], "repeat_transferred");
  EXPECT_NE(again.message.find("repeat-contact flag = repeat_transferred"), std::string::npos)
      << again.message;
  const testing::DirectSql sql(file);
  ASSERT_FALSE(state["synthesis"]["drivers"].empty());
  for (const Json& driver : state["synthesis"]["drivers"]) {
    const std::string of =
        " FROM contacts WHERE contact_reason = '" + testing::generated_reasons().at(driver["id"]) + "'";
    EXPECT_EQ(driver["repeats"], sql.integer("SELECT count_if(repeat_transferred)" + of)) << driver["id"];
    EXPECT_EQ(driver["contacts"], sql.integer("SELECT count(*)" + of)) << driver["id"];
  }
}

TEST_F(CheckpointAnswer, AFocusAnsweredAtTheSynthesizerKeepsThoseLensesTopDriversInTheReport) {
  testing::MemoryRunner memory;
  const graph::RunResult paused =
      pause_at(memory.runner, "t1", run_input(contacts(), out("focus"), false), "synthesizer");

  const graph::RunResult again = answer_again(
      memory.runner, paused, R"({"focus": {"lenses": ["policy", "communication"], "top_drivers": 3}})");
  const Json state = finish(memory.runner, again);

  // The three policy or communication drivers with the best Impact x Ease, as the full ranking orders them.
  std::vector<std::string> expected;
  for (const Json& driver : state["synthesis"]["drivers"]) {
    if ((driver["lens"] == "policy" || driver["lens"] == "communication") && expected.size() < 3)
      expected.push_back(driver["id"]);
  }
  EXPECT_EQ(state["synthesis"]["report_drivers"], Json(expected));
  EXPECT_NE(again.message.find("Report focus: lenses Policy, Communication; top 3 drivers: 3 of 13 drivers"),
            std::string::npos)
      << again.message;
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
  ASSERT_TRUE(db);
  const std::string csv = state["data_file_path"];
  core::Result<data::QueryResult> rows =
      (*db)->query("SELECT driver_id, lens, contacts FROM read_csv('" + csv + "')");
  ASSERT_TRUE(rows) << rows.error().describe();
  ASSERT_EQ(rows->row_count(), 3u);
  const testing::DirectSql sql(contacts());
  for (std::size_t i = 0; i < rows->row_count(); ++i) {
    const std::string id = rows->at(i, 0).as_text();
    EXPECT_EQ(id, expected[i]);
    EXPECT_EQ(rows->at(i, 2).as_int(), sql.integer("SELECT count(*) FROM contacts WHERE contact_reason = '" +
                                                   testing::generated_reasons().at(id) + "'"))
        << id;
  }
}

TEST_F(CheckpointAnswer, TheChannelsDataDiscoveryListsAreTheOnesDataPrepFiltersOn) {
  // The sample under other column names, with chat padded by spaces and social left empty.
  const std::filesystem::path file = out("tickets.csv");
  {
    core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
    ASSERT_TRUE(db);
    ASSERT_TRUE((*db)->exec(
        "COPY (SELECT contact_id AS ticket_id, contact_timestamp AS created_at, "
        "CASE channel WHEN 'chat' THEN ' chat ' WHEN 'social' THEN '' ELSE channel END AS medium, "
        "contact_reason AS category, summary AS comments, handle_time_sec AS duration, "
        "transfers AS transfer_count, repeat_contact AS recontact, resolution AS outcome FROM read_csv('" +
        contacts().string() + "')) TO '" + file.string() + "' (HEADER)"));
  }
  const testing::DirectSql sql(file);
  testing::MemoryRunner memory;
  const graph::RunResult paused =
      pause_at(memory.runner, "t1", run_input(file, out("tickets"), false), "data_prep");

  const Json listed = paused.state.json()["dataset"]["channels"];
  EXPECT_EQ(listed.size(),
            sql.integer("SELECT count(DISTINCT coalesce(NULLIF(trim(medium), ''), '(none)')) FROM contacts"));
  for (const Json& channel : listed) {
    const std::string name = channel["channel"];
    const std::string where =
        name == "(none)" ? "coalesce(trim(medium), '') = ''" : "trim(medium) = '" + name + "'";
    EXPECT_EQ(channel["contacts"], sql.integer("SELECT count(*) FROM contacts WHERE " + where)) << name;
  }
  const std::int64_t chat = sql.integer("SELECT count(*) FROM contacts WHERE trim(medium) = 'chat'");
  ASSERT_GT(chat, 0);
  EXPECT_NE(paused.message.find("\"chat\""), std::string::npos) << paused.message;
  EXPECT_EQ(paused.message.find("\" chat \""), std::string::npos) << paused.message;

  core::Result<graph::RunResult> padded =
      memory.runner.resume("t1", paused.checkpoint_id, R"({"filters": {"channels": [" chat "]}})");
  ASSERT_FALSE(padded);
  EXPECT_EQ(padded.error().where, "/filters/channels/0") << padded.error().describe();
  const graph::RunResult again =
      answer_again(memory.runner, paused, R"({"filters": {"channels": ["chat"]}})");
  EXPECT_EQ(again.state.json()["prep"]["rows_kept"], chat);
  EXPECT_EQ(again.state.json()["prep"]["channels"],
            Json::array({Json{{"channel", "chat"}, {"contacts", chat}}}));
}

// Channels and period each valid on their own can still keep no contact together; such filters are
// refused at the checkpoint (data_prep would fail on them), and the run stays there.
TEST_F(CheckpointAnswer, FiltersThatKeepNoContactAreRefusedAtTheCheckpoint) {
  // The sample with social contacts only in January.
  const std::filesystem::path file = out("january_social.csv");
  {
    core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
    ASSERT_TRUE(db);
    ASSERT_TRUE(
        (*db)->exec("COPY (SELECT * REPLACE (CASE WHEN channel = 'social' AND contact_timestamp >= "
                    "DATE '2025-02-01' THEN 'chat' ELSE channel END AS channel) FROM read_csv('" +
                    contacts().string() + "')) TO '" + file.string() + "' (HEADER)"));
  }
  const testing::DirectSql sql(file);
  ASSERT_EQ(
      sql.integer("SELECT count(*) FROM contacts WHERE channel = 'social' AND contact_timestamp >= DATE "
                  "'2025-02-01'"),
      0);
  const std::int64_t january_social = sql.integer(
      "SELECT count(*) FROM contacts WHERE channel = 'social' AND contact_timestamp < DATE '2025-02-01'");
  ASSERT_GT(january_social, 0);
  testing::MemoryRunner memory;
  const graph::RunResult paused =
      pause_at(memory.runner, "t1", run_input(file, out("january_social"), false), "data_prep");

  core::Result<graph::RunResult> refused = memory.runner.resume(
      "t1", paused.checkpoint_id, R"({"filters": {"channels": ["social"], "from": "2025-02-01"}})");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(refused.error().where, "/filters") << refused.error().describe();
  EXPECT_NE(refused.error().message.find(
                R"(no contact of the data meets all of {"channels":["social"],"from":"2025-02-01"})"),
            std::string::npos)
      << refused.error().describe();
  core::Result<graph::JsonValue> head = memory.runner.state("t1");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->json(), paused.state.json());

  const graph::RunResult again =
      answer_again(memory.runner, paused, R"({"filters": {"channels": ["social"], "to": "2025-01-31"}})");
  EXPECT_EQ(again.state.json()["prep"]["rows_kept"], january_social);
}

struct BadAnswer {
  const char* node;
  const char* answer;
  const char* where;
  const char* says;
};

TEST_F(CheckpointAnswer, ABadAnswerIsRefusedNamingItsFieldAndTheRunStaysAtItsCheckpoint) {
  const BadAnswer cases[] = {
      {"data_discovery", R"({"columns": {"sumary": "notes"}})", "/columns/sumary",
       "no field of the friction analysis"},
      {"data_discovery", R"({"columns": {"summary": "notes"}})", "/columns/summary",
       "\"notes\" is no column"},
      {"data_discovery", R"({"filters": {}})", "/filters", "friction_discovery_answer"},
      {"data_prep", R"({"filters": {"channels": ["fax"]}})", "/filters/channels/0",
       "its channels are \"phone\""},
      {"data_prep", R"({"filters": {"from": "2025-02-30"}})", "/filters/from", "no day of the calendar"},
      {"data_prep", R"({"filters": {"from": "2025-05-01", "to": "2025-04-01"}})", "/filters/from",
       "after \"to\""},
      {"data_prep", R"({"filters": {"to": "2024-12-31"}})", "/filters/to", "the data starts on 2025-01-01"},
      {"data_prep", R"({"filters": {"channels": "chat"}})", "/filters/channels", "friction_prep_answer"},
      {"data_prep", "only the chat channel please", "answer", "yes, no, or a JSON object"},
      {"data_prep", "{\"filters\": ", "answer", "not valid JSON"},
      {"synthesizer", R"({"focus": {"lenses": ["billing"]}})", "/focus/lenses/0", "\"billing\" is no lens"},
      {"synthesizer", R"({"focus": {"top_drivers": 0}})", "/focus/top_drivers", "friction_synthesis_answer"},
  };
  testing::MemoryRunner memory;
  std::map<std::string, graph::RunResult> paused;
  for (const char* node : {"data_discovery", "data_prep", "synthesizer"})
    paused.emplace(node, pause_at(memory.runner, node,
                                  run_input(contacts(), out(std::string("bad_") + node), false), node));

  for (const BadAnswer& bad : cases) {
    const graph::RunResult& at = paused.at(bad.node);
    core::Result<graph::RunResult> refused = memory.runner.resume(bad.node, at.checkpoint_id, bad.answer);

    ASSERT_FALSE(refused) << bad.answer;
    EXPECT_EQ(refused.error().code, core::ErrorCode::kInvalidArgument) << bad.answer;
    EXPECT_EQ(refused.error().where, bad.where) << bad.answer << ": " << refused.error().describe();
    EXPECT_NE(refused.error().message.find(bad.says), std::string::npos) << refused.error().describe();
    core::Result<graph::JsonValue> head = memory.runner.state(bad.node);
    ASSERT_TRUE(head);
    EXPECT_EQ(head->json(), at.state.json()) << bad.answer;
  }
  for (const char* node :
       {"data_discovery", "data_prep", "synthesizer"}) {  // nothing lost: approve still works
    core::Result<graph::RunResult> next = memory.runner.resume(node, paused.at(node).checkpoint_id, "yes");
    ASSERT_TRUE(next) << next.error().describe();
    EXPECT_NE(next->status, graph::RunStatus::kFailed) << node;
  }
}

}  // namespace
}  // namespace planfirst::friction
