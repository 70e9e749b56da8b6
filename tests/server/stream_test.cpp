// SSE streams from the durable per-run event log: every event numbered without gaps, a reconnect with
// Last-Event-ID gets exactly the events after it, a finished run replays byte for byte, and the
// modes carry values, node deltas and seed 003's progress and reasoning.
#include <gtest/gtest.h>

#include "server_fixture.hpp"

namespace planfirst::server::testing {
namespace {

struct FinishedRun {
  std::string thread;
  std::string run_id;
  std::string stream_path;
};

FinishedRun finished_reference_run(ServerFixture& fixture) {
  const std::string thread = fixture.thread("reference");
  const json run = fixture.post("/threads/" + thread + "/runs/wait", json{{"assistant_id", "reference"}});
  const std::string run_id = run["run_id"].get<std::string>();
  return {thread, run_id, "/threads/" + thread + "/runs/" + run_id + "/stream"};
}

TEST(ServerStream, EveryEventHasTheNextSequenceNumberFromMetadataToEnd) {
  ServerFixture fixture;
  const FinishedRun run = finished_reference_run(fixture);

  const std::vector<Event> events = parse_sse(fixture.stream(run.stream_path));

  ASSERT_GE(events.size(), 3u);
  for (std::size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i].id, static_cast<std::int64_t>(i + 1));
  EXPECT_EQ(events.front().event, "metadata");
  EXPECT_EQ(events.front().data["run_id"], run.run_id);
  EXPECT_EQ(events.back().event, "end");
  EXPECT_EQ(events.back().data["interrupt"]["node"], "data_discovery");
}

TEST(ServerStream, LastEventIdGivesExactlyTheEventsAfterIt) {
  ServerFixture fixture;
  const FinishedRun run = finished_reference_run(fixture);
  const std::vector<Event> all = parse_sse(fixture.stream(run.stream_path));
  const std::int64_t cut = all[all.size() / 2].id;

  const std::vector<Event> rest =
      parse_sse(fixture.stream(run.stream_path, {{"Last-Event-ID", std::to_string(cut)}}));

  ASSERT_EQ(rest.size(), all.size() - static_cast<std::size_t>(cut));
  for (std::size_t i = 0; i < rest.size(); ++i) {
    EXPECT_EQ(rest[i].id, all[static_cast<std::size_t>(cut) + i].id);
    EXPECT_EQ(rest[i].data, all[static_cast<std::size_t>(cut) + i].data);
  }
}

TEST(ServerStream, AFinishedRunReplaysByteForByte) {
  ServerFixture fixture;
  const FinishedRun run = finished_reference_run(fixture);

  const std::string first = fixture.stream(run.stream_path);
  const std::string second = fixture.stream(run.stream_path);

  EXPECT_EQ(first, second);
}

TEST(ServerStream, UpdatesAreNodeDeltasAndCustomCarriesTheReasoning) {
  ServerFixture fixture;
  const FinishedRun run = finished_reference_run(fixture);

  const std::vector<Event> events =
      parse_sse(fixture.stream(run.stream_path + "?stream_mode=updates,custom"));

  bool supervisor_update = false;
  bool reasoning = false;
  for (const Event& event : events) {
    EXPECT_TRUE(event.event == "updates" || event.event == "custom" || event.event == "metadata" ||
                event.event == "end")
        << event.event;
    if (event.event == "updates" && event.data.contains("supervisor")) supervisor_update = true;
    if (event.event == "custom" && event.data["type"] == "reasoning" && event.data.contains("step_text"))
      reasoning = true;
  }
  EXPECT_TRUE(supervisor_update);
  EXPECT_TRUE(reasoning);
}

TEST(ServerStream, ValuesCarryTheWholeStateAfterEachStep) {
  ServerFixture fixture;
  const FinishedRun run = finished_reference_run(fixture);

  const std::vector<Event> events = parse_sse(fixture.stream(run.stream_path + "?stream_mode=values"));
  const json state = fixture.get("/threads/" + run.thread + "/state");

  ASSERT_GE(events.size(), 3u);
  const Event& last_values = events[events.size() - 2];
  EXPECT_EQ(last_values.event, "values");
  EXPECT_EQ(last_values.data, state["values"]);
}

TEST(ServerStream, ALiveStreamFollowsTheRunUntilItsEnd) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("gated");

  std::string body;
  std::thread reader([&] {
    auto response = fixture.client()->Post(("/threads/" + thread + "/runs/stream").c_str(),
                                           json{{"assistant_id", "gated"}}.dump(), "application/json");
    if (response) body = response->body;
  });
  fixture.gate.wait_entered(1);
  fixture.gate.release();
  reader.join();
  const std::vector<Event> events = parse_sse(body);

  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().event, "end");
  EXPECT_EQ(events.back().data["run_status"], "success");
  bool progress = false;
  for (const Event& event : events) progress |= event.event == "custom" && event.data["type"] == "progress";
  EXPECT_TRUE(progress);
}

TEST(ServerStream, AMalformedLastEventIdIsRefused) {
  ServerFixture fixture;
  const FinishedRun run = finished_reference_run(fixture);

  auto response = fixture.client()->Get(run.stream_path.c_str(), {{"Last-Event-ID", "abc"}});

  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 400);
  EXPECT_EQ(json::parse(response->body)["error"]["where"], "Last-Event-ID");
}

}  // namespace
}  // namespace planfirst::server::testing
