// The HTTP API as a client meets it: assistants, threads, background runs joined and cancelled,
// interrupts resumed by checkpoint id (a stale one is 409 and forks nothing), the multitask
// strategies, and JSON errors.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>

#include "server_fixture.hpp"

namespace planfirst::server::testing {
namespace {

std::string runs_path(const std::string& thread) {
  return "/threads/" + thread + "/runs";
}

TEST(ServerApi, HealthzAnswersOk) {
  ServerFixture fixture;

  const json health = fixture.get("/healthz");

  EXPECT_EQ(health["ok"], true);
}

TEST(ServerApi, AssistantsAreTheRegisteredGraphs) {
  ServerFixture fixture;

  const json assistants = fixture.post("/assistants/search", json::object());
  const json graph = fixture.get("/assistants/reference/graph");

  std::set<std::string> names;
  for (const json& assistant : assistants) names.insert(assistant["assistant_id"].get<std::string>());
  EXPECT_EQ(names,
            (std::set<std::string>{"analyst", "autoviz", "checked", "gated", "reference", "retrieval"}));
  bool decision = false;
  for (const json& node : graph["nodes"])
    decision |= node["id"] == "data_discovery" && node["kind"] == "decision";
  EXPECT_TRUE(decision) << graph.dump();
}

TEST(ServerApi, AnUnknownAssistantIsNotFoundWithAJsonError) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("reference");

  auto response = fixture.client()->Post(runs_path(thread).c_str(), json{{"assistant_id", "nosuch"}}.dump(),
                                         "application/json");

  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 404);
  const json body = json::parse(response->body);
  EXPECT_EQ(body["error"]["code"], "not_found");
  EXPECT_NE(body["error"]["message"].get<std::string>().find("reference"), std::string::npos)
      << response->body;
}

TEST(ServerApi, ARunPausesAtTheCheckpointAndAResumeAtTheHeadContinues) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("reference");

  const json run =
      fixture.post(runs_path(thread), json{{"assistant_id", "reference"}, {"input", json::object()}});
  const json joined = fixture.get(runs_path(thread) + "/" + run["run_id"].get<std::string>() + "/join");
  const json state = fixture.get("/threads/" + thread + "/state");
  const std::string checkpoint = state["checkpoint_id"].get<std::string>();
  const json resumed =
      fixture.post(runs_path(thread), json{{"command", {{"resume", "yes"}}}, {"checkpoint_id", checkpoint}});
  const json rejoined = fixture.get(runs_path(thread) + "/" + resumed["run_id"].get<std::string>() + "/join");
  const json after = fixture.get("/threads/" + thread + "/state");

  EXPECT_EQ(joined["status"], "success") << joined.dump();
  ASSERT_EQ(joined["interrupts"].size(), 1u) << joined.dump();
  EXPECT_EQ(joined["interrupts"][0]["node"], "data_discovery");
  EXPECT_EQ(fixture.get("/threads/" + thread)["status"], "interrupted");
  EXPECT_EQ(state["interrupts"][0]["checkpoint_id"], checkpoint);
  EXPECT_EQ(state["values"]["checkpoint_id"], checkpoint);  // seed 003 §7.3, in the state itself
  EXPECT_EQ(rejoined["status"], "success") << rejoined.dump();
  EXPECT_EQ(after["values"]["checkpoint_id"], after["interrupts"][0]["checkpoint_id"]);
  EXPECT_EQ(after["interrupts"][0]["node"], "data_prep") << after.dump();
  EXPECT_EQ(after["last_completed_node"], "data_prep");
}

TEST(ServerApi, AnAnswerTheGraphRefusesIsABadRequestNamingItsFieldAndTheThreadStaysAtItsCheckpoint) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("checked");
  const json first = fixture.post("/threads/" + thread + "/runs/wait", json{{"assistant_id", "checked"}});
  ASSERT_EQ(first.value("interrupts", json::array()).size(), 1u) << first.dump();
  const std::string checkpoint = first["interrupts"][0]["checkpoint_id"].get<std::string>();
  const std::size_t runs_before = fixture.get(runs_path(thread)).size();

  auto refused = fixture.client()->Post(
      runs_path(thread).c_str(),
      json{{"command", {{"resume", "maybe"}}}, {"checkpoint_id", checkpoint}}.dump(), "application/json");
  const json state = fixture.get("/threads/" + thread + "/state");
  const json accepted = fixture.post("/threads/" + thread + "/runs/wait",
                                     json{{"command", {{"resume", "yes"}}}, {"checkpoint_id", checkpoint}});

  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400) << refused->body;
  const json error = json::parse(refused->body)["error"];
  EXPECT_EQ(error["code"], "invalid_argument");
  EXPECT_EQ(error["where"], "/answer");
  EXPECT_EQ(error["message"], "answer yes, not 'maybe'");
  EXPECT_EQ(fixture.get(runs_path(thread)).size(), runs_before + 1);  // the refused answer queued nothing
  EXPECT_EQ(state["checkpoint_id"], checkpoint);
  EXPECT_EQ(state["interrupts"][0]["checkpoint_id"], checkpoint);
  EXPECT_EQ(accepted["status"], "success") << accepted.dump();
  EXPECT_EQ(accepted["values"]["second"], true) << accepted.dump();
}

TEST(ServerApi, AStaleCheckpointIsAConflictAndForksNothing) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("reference");
  const json first = fixture.post("/threads/" + thread + "/runs/wait", json{{"assistant_id", "reference"}});
  const std::string old_checkpoint = first["interrupts"][0]["checkpoint_id"].get<std::string>();
  fixture.post("/threads/" + thread + "/runs/wait",
               json{{"command", {{"resume", "yes"}}}, {"checkpoint_id", old_checkpoint}});
  const json history_before = fixture.get("/threads/" + thread + "/history?limit=1000");
  const std::size_t runs_before = fixture.get(runs_path(thread)).size();

  auto stale = fixture.client()->Post(
      runs_path(thread).c_str(),
      json{{"command", {{"resume", "yes"}}}, {"checkpoint_id", old_checkpoint}}.dump(), "application/json");

  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->status, 409) << stale->body;
  EXPECT_EQ(json::parse(stale->body)["error"]["code"], "conflict");
  EXPECT_EQ(fixture.get("/threads/" + thread + "/history?limit=1000").size(), history_before.size());
  EXPECT_EQ(fixture.get(runs_path(thread)).size(), runs_before);
}

TEST(ServerApi, AResumeWithoutACheckpointIdIsRefused) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("reference");
  fixture.post("/threads/" + thread + "/runs/wait", json{{"assistant_id", "reference"}});

  auto response = fixture.client()->Post(runs_path(thread).c_str(),
                                         json{{"command", {{"resume", "yes"}}}}.dump(), "application/json");

  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 400);
  EXPECT_EQ(json::parse(response->body)["error"]["where"], "checkpoint_id");
}

TEST(ServerApi, RejectRefusesASecondRunWhileOneIsActiveAndEnqueueQueuesIt) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("gated");
  const json first = fixture.post(runs_path(thread), json{{"assistant_id", "gated"}});
  fixture.gate.wait_entered(1);

  auto rejected = fixture.client()->Post(runs_path(thread).c_str(), json{{"assistant_id", "gated"}}.dump(),
                                         "application/json");
  const json queued =
      fixture.post(runs_path(thread), json{{"assistant_id", "gated"}, {"multitask_strategy", "enqueue"}});
  const json queued_before = fixture.get(runs_path(thread) + "/" + queued["run_id"].get<std::string>());
  fixture.gate.release();
  const json first_done = fixture.get(runs_path(thread) + "/" + first["run_id"].get<std::string>() + "/join");
  const json queued_done =
      fixture.get(runs_path(thread) + "/" + queued["run_id"].get<std::string>() + "/join");

  ASSERT_TRUE(rejected);
  EXPECT_EQ(rejected->status, 409) << rejected->body;
  EXPECT_EQ(json::parse(rejected->body)["error"]["where"], "multitask_strategy");
  EXPECT_EQ(queued_before["status"], "pending");
  EXPECT_EQ(first_done["status"], "success");
  EXPECT_EQ(queued_done["status"], "success");
  EXPECT_EQ(queued_done["values"], json({{"first", true}, {"second", true}}));
}

TEST(ServerApi, CancelStopsARunBeforeItsNextNodeAndTheThreadTakesANewRun) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("gated");
  const json run = fixture.post(runs_path(thread), json{{"assistant_id", "gated"}});
  const std::string run_path = runs_path(thread) + "/" + run["run_id"].get<std::string>();
  fixture.gate.wait_entered(1);

  const json asked = fixture.post(run_path + "/cancel", json::object(), 202);
  fixture.gate.release();
  const json cancelled = fixture.get(run_path + "/join");
  const json state = fixture.get("/threads/" + thread + "/state");
  const json again = fixture.post("/threads/" + thread + "/runs/wait", json{{"assistant_id", "gated"}});

  EXPECT_EQ(cancelled["status"], "interrupted") << cancelled.dump();
  EXPECT_EQ(cancelled["values"], json({{"first", true}})) << "the second node never ran";
  EXPECT_EQ(state["last_completed_node"], "first");
  EXPECT_EQ(state["next"], json::array({"second"}));
  EXPECT_EQ(again["status"], "success") << again.dump();
  EXPECT_TRUE(asked.contains("run_id"));
}

TEST(ServerApi, AnUnknownRouteAndAWrongMethodAreJsonErrors) {
  ServerFixture fixture;

  auto missing = fixture.client()->Get("/nosuch");
  auto wrong = fixture.client()->Delete("/assistants/search");

  ASSERT_TRUE(missing);
  ASSERT_TRUE(wrong);
  EXPECT_EQ(missing->status, 404);
  EXPECT_EQ(json::parse(missing->body)["error"]["code"], "no_route");
  EXPECT_EQ(wrong->status, 405);
  EXPECT_EQ(json::parse(wrong->body)["error"]["code"], "method_not_allowed");
}

TEST(ServerApi, ABodyThatIsNoJsonObjectNamesTheBody) {
  ServerFixture fixture;

  auto response = fixture.client()->Post("/threads", "[1, 2", "application/json");

  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 400);
  EXPECT_EQ(json::parse(response->body)["error"]["where"], "body");
}

TEST(ServerApi, ARegisteredPipelineGraphRunsToItsCheckpoint) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("autoviz");
  std::ifstream sales(std::string(PLANFIRST_SOURCE_DIR) + "/examples/sales.csv");
  auto upload = fixture.client()->Post("/datasets?name=sales.csv",
                                       std::string(std::istreambuf_iterator<char>(sales), {}), "text/csv");
  ASSERT_TRUE(upload && upload->status == 201);
  const json input{{"question", "revenue by region"},
                   {"dataset", json::parse(upload->body)["path"]},
                   {"confirm", true},
                   {"write_files", false}};

  const json done = fixture.post("/threads/" + thread + "/runs/wait", json{{"input", input}});

  EXPECT_EQ(done["status"], "success") << done.dump();
  ASSERT_EQ(done["interrupts"].size(), 1u) << done.dump();
  EXPECT_EQ(done["interrupts"][0]["node"], "confirm");
}

}  // namespace
}  // namespace planfirst::server::testing
