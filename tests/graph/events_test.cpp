#include "graph/events.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "runner_harness.hpp"

namespace planfirst::graph {
namespace {

using testing::json;
using testing::returns;

CompiledGraph two_step_graph() {
  GraphSettings settings;
  settings.common_writes = {"requires_user_input"};
  GraphBuilder builder("events", settings);
  builder.add_node(worker_node("work",
                               [](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
                                 ctx.report_progress("half way");
                                 return Delta(json(R"({"requires_user_input": false, "x": 1})"));
                               },
                               {"x"}));
  builder.add_node(decision_node(
      "ask", returns(R"({"requires_user_input": true, "checkpoint_prompt": "Ok?"})"), {"checkpoint_prompt"}));
  builder.set_entry("work");
  builder.add_edge("work", "ask");
  builder.set_finish("ask");
  return testing::compile_or_throw(builder);
}

std::vector<std::string> summary(const std::vector<Event>& events) {
  std::vector<std::string> lines;
  for (const Event& e : events) {
    lines.push_back(std::string(to_string(e.kind)) + " " + e.node + " " + e.checkpoint_id + " " +
                    std::to_string(e.step));
  }
  return lines;
}

TEST(Events, ArriveInStepOrderWithCheckpointAndNode) {
  testing::Harness h;
  Runner runner(two_step_graph(), h.options());

  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  EXPECT_EQ(summary(h.events.events()), (std::vector<std::string>{
                                            "updates __input__ cp-1 0",
                                            "node_start work cp-1 0",
                                            "progress work cp-1 0",
                                            "updates work cp-2 1",
                                            "node_end work cp-2 1",
                                            "node_start ask cp-2 1",
                                            "updates ask cp-3 2",
                                            "node_end ask cp-3 2",
                                            "interrupt ask cp-3 2",
                                        }));
  for (const Event& e : h.events.events()) EXPECT_EQ(e.thread_id, "t1");
}

TEST(Events, SendsValuesOnlyWhenAskedFor) {
  testing::Harness h;
  RunnerOptions options = h.options();
  options.stream_values = true;
  Runner runner(two_step_graph(), options);

  ASSERT_TRUE(runner.run("t1", Delta(json(R"({"y": 2})"))));

  std::vector<std::string> values;
  for (const Event& e : h.events.events()) {
    if (e.kind == EventKind::kValues) values.push_back(e.node + " " + e.data.dump());
  }
  EXPECT_EQ(values, (std::vector<std::string>{
                        R"(work {"requires_user_input":false,"x":1,"y":2})",
                        R"(ask {"checkpoint_prompt":"Ok?","requires_user_input":true,"x":1,"y":2})"}));
}

TEST(Events, UpdatesCarryTheDeltaAsMerged) {
  testing::Harness h;
  Runner runner(two_step_graph(), h.options());

  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  const std::vector<Event> events = h.events.events();
  EXPECT_EQ(events[3].data.dump(), R"({"requires_user_input":false,"x":1})");
  EXPECT_EQ(events[8].data.dump(), R"({"message":"","prompt":"Ok?"})");
}

TEST(Events, JsonLinesPrinterWritesOneObjectPerLine) {
  std::ostringstream out;
  JsonLinesEventPrinter printer(out);
  Event event;
  event.kind = EventKind::kNodeEnd;
  event.thread_id = "t1";
  event.checkpoint_id = "cp-2";
  event.node = "friction/f2";
  event.step = 1;
  event.data = json(R"({"status":"running"})");

  printer.on_event(event);
  printer.on_event(event);

  const std::string line =
      R"({"checkpoint_id":"cp-2","data":{"status":"running"},"event":"node_end","mode":"events","node":"friction/f2","step":1,"thread_id":"t1"})";
  EXPECT_EQ(out.str(), line + "\n" + line + "\n");
}

TEST(Events, StreamModeGroupsEventKinds) {
  EXPECT_EQ(stream_mode(EventKind::kUpdates), "updates");
  EXPECT_EQ(stream_mode(EventKind::kValues), "values");
  EXPECT_EQ(stream_mode(EventKind::kInterrupt), "events");
  EXPECT_EQ(stream_mode(EventKind::kProgress), "events");
}

}  // namespace
}  // namespace planfirst::graph
