#include "graph/delta_validator.hpp"

#include <gtest/gtest.h>

#include "graph/graph_builder.hpp"
#include "graph_test_support.hpp"

namespace planfirst::graph {
namespace {

using testing::json;

// The violations of `delta` returned by `node` of the reference graph, as "node pointer [keyword]".
std::vector<std::string> violations(std::string_view node, std::string_view delta) {
  const CompiledGraph graph = testing::reference_graph();
  const DeltaReport report = validate_delta(graph, *graph.node(node), node, json(delta));
  std::vector<std::string> lines;
  for (const DeltaViolation& v : report.violations())
    lines.push_back(v.node + " " + v.pointer + " [" + v.keyword + "]");
  return lines;
}

TEST(DeltaValidator, AcceptsTheSeedMinimumContract) {
  EXPECT_TRUE(violations("critique", R"({"reasoning": [{"step_name": "Agent", "step_text": "What happened"}],
      "requires_user_input": false, "next_agent": "supervisor"})")
                  .empty());
}

TEST(DeltaValidator, NamesAMissingRequiredField) {
  const auto found = violations("critique", R"({"reasoning": [], "requires_user_input": false})");

  EXPECT_EQ(found, (std::vector<std::string>{"critique /next_agent [required]"}));
}

TEST(DeltaValidator, NamesAnUnknownKey) {
  const auto found = violations("critique", R"({"reasoning": [], "requires_user_input": false,
      "next_agent": "supervisor", "mood": "happy"})");

  EXPECT_EQ(found, (std::vector<std::string>{"critique /mood [additionalProperties]"}));
}

TEST(DeltaValidator, NamesAWrongType) {
  const auto found = violations("data_prep", R"({"reasoning": [], "requires_user_input": false,
      "next_agent": "supervisor", "plan_steps_completed": "two"})");

  EXPECT_EQ(found, (std::vector<std::string>{"data_prep /plan_steps_completed [type]"}));
}

TEST(DeltaValidator, NamesAWriteTheNodeDidNotDeclare) {
  const auto found = violations("critique", R"({"reasoning": [], "requires_user_input": false,
      "next_agent": "reporting", "plan_steps_completed": 5})");

  EXPECT_EQ(found, (std::vector<std::string>{"critique /plan_steps_completed [undeclared_write]"}));
}

TEST(DeltaValidator, NamesAnIllegalTaskStatus) {
  const auto found = violations("data_prep", R"({"reasoning": [], "requires_user_input": false,
      "next_agent": "supervisor", "plan_tasks": [{"id": "2", "title": "Prep", "status": "finished"}]})");

  EXPECT_EQ(found, (std::vector<std::string>{"data_prep /plan_tasks/0/status [enum]"}));
}

TEST(DeltaValidator, NamesAnIllegalSubAgentStatus) {
  const auto found = violations("data_prep", R"({"reasoning": [], "requires_user_input": false,
      "next_agent": "supervisor",
      "plan_tasks": [{"id": "3", "title": "F", "status": "done", "sub_agents": [{"id": "f1", "status": "ok"}]}]})");

  EXPECT_EQ(found, (std::vector<std::string>{"data_prep /plan_tasks/0/sub_agents/0/status [enum]"}));
}

TEST(DeltaValidator, RefusesAnInterruptFromANodeThatIsNoDecisionNode) {
  const auto found = violations("critique", R"({"reasoning": [], "requires_user_input": true,
      "next_agent": "supervisor"})");

  // The contract's own rule also asks for the message and prompt; the runtime adds who may ask.
  EXPECT_EQ(found, (std::vector<std::string>{"critique /checkpoint_message [input_needs_checkpoint_prompt]",
                                             "critique /checkpoint_prompt [input_needs_checkpoint_prompt]",
                                             "critique /requires_user_input [checkpoint_policy]"}));
}

TEST(DeltaValidator, RefusesAPromptFromANodeThatIsNoDecisionNode) {
  const auto found = violations("critique", R"({"reasoning": [], "requires_user_input": false,
      "next_agent": "supervisor", "checkpoint_prompt": "Proceed?"})");

  EXPECT_EQ(found, (std::vector<std::string>{"critique /checkpoint_prompt [no_input_clears_checkpoint]",
                                             "critique /checkpoint_prompt [undeclared_write]"}));
}

TEST(DeltaValidator, LetsAnyNodeClearThePromptKeys) {
  const auto found = violations("critique", R"({"reasoning": [], "requires_user_input": false,
      "next_agent": "supervisor", "checkpoint_message": "", "checkpoint_prompt": ""})");

  EXPECT_TRUE(found.empty());
}

TEST(DeltaValidator, RequiresAPromptWhenADecisionNodeInterrupts) {
  const auto found = violations("synthesizer", R"({"reasoning": [], "requires_user_input": true,
      "next_agent": "supervisor", "checkpoint_message": "Done"})");

  EXPECT_EQ(found,
            (std::vector<std::string>{"synthesizer /checkpoint_prompt [input_needs_checkpoint_prompt]"}));
}

TEST(DeltaValidator, RequiresAPromptWhenTheDeltaContractDoesNot) {
  GraphBuilder builder("test", GraphSettings{});
  builder.add_node(decision_node("ask", testing::returns("{}"), {"requires_user_input"}));
  builder.set_entry("ask");
  builder.set_finish("ask");
  const core::Result<CompiledGraph> graph = builder.compile();
  ASSERT_TRUE(graph);

  const DeltaReport report =
      validate_delta(*graph, *graph->node("ask"), "ask", json(R"({"requires_user_input": true})"));

  ASSERT_EQ(report.violations().size(), 1u);
  EXPECT_EQ(report.violations()[0].describe(),
            "node ask: /checkpoint_prompt [checkpoint_policy] a decision node that sets requires_user_input "
            "true must "
            "set a non-empty checkpoint_prompt");
}

TEST(DeltaValidator, ReportErrorNamesNodeAndPointer) {
  const CompiledGraph graph = testing::reference_graph();
  const DeltaReport report = validate_delta(graph, *graph.node("critique"), "critique",
                                            json(R"({"reasoning": [], "requires_user_input": false})"));

  const core::Error error = report.error();

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(error.where, "critique/next_agent");
  EXPECT_NE(error.message.find("node critique: /next_agent [required]"), std::string::npos) << error.message;
}

}  // namespace
}  // namespace planfirst::graph
