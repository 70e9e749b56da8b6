#include "contracts/gbnf_export.hpp"

#include <gtest/gtest.h>

#include <string>

#include "contracts/contract_registry.hpp"
#include "contracts/gbnf_grammar.hpp"
#include "core/asset_store.hpp"

namespace planfirst::contracts {
namespace {

ContractRegistry builtin_registry() {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  EXPECT_TRUE(registry.has_value()) << registry.error().describe();
  return std::move(*registry);
}

GbnfGrammar grammar_of(const ContractRegistry& registry, const std::string& name) {
  core::Result<std::string> text = to_gbnf(*registry.find(name));
  EXPECT_TRUE(text.has_value()) << text.error().describe();
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse(text.value_or(""));
  EXPECT_TRUE(grammar.has_value()) << grammar.error().describe() << "\n" << text.value_or("");
  return std::move(*grammar);
}

TEST(GbnfExport, EveryShippedContractExportsAWellFormedRuleSet) {
  const ContractRegistry registry = builtin_registry();

  for (const std::string& name : registry.names()) {
    core::Result<std::string> text = to_gbnf(*registry.find(name));

    ASSERT_TRUE(text.has_value()) << name << ": " << text.error().describe();
    core::Result<GbnfGrammar> grammar = GbnfGrammar::parse(*text);
    ASSERT_TRUE(grammar.has_value()) << name << ": " << grammar.error().describe() << "\n" << *text;
    EXPECT_EQ(grammar->rule_names().front(), "root") << name;
  }
}

TEST(GbnfExport, AnalystPlanGrammarAcceptsTheSeedExampleAsWritten) {
  const ContractRegistry registry = builtin_registry();
  const GbnfGrammar grammar = grammar_of(registry, "analyst_plan");
  const std::string seed_example = R"({
    "intent": "query_sprint_completion_rate",
    "request_type": "STATUS_METRIC",
    "track": "QUALITY",
    "required_sources": ["db"],
    "missing_info_questions": [],
    "expected_output_schema": "status_metric_v1_json"
})";

  const bool accepted = grammar.accepts(seed_example);

  EXPECT_TRUE(accepted);
}

TEST(GbnfExport, AnalystPlanGrammarRefusesWhatTheContractRefuses) {
  const ContractRegistry registry = builtin_registry();
  const GbnfGrammar grammar = grammar_of(registry, "analyst_plan");
  const std::string prefix = R"({"intent": "x", "request_type": )";
  const std::string tail = R"(, "track": "FAST", "required_sources": [], "missing_info_questions": [], )";

  EXPECT_TRUE(
      grammar.accepts(prefix + R"("CASUAL")" + tail + R"("expected_output_schema": "answer_v1_markdown"})"));
  EXPECT_FALSE(grammar.accepts(prefix + R"("STATUS_REPORT")" + tail +
                               R"("expected_output_schema": "answer_v1_markdown"})"));
  EXPECT_FALSE(grammar.accepts(prefix + R"("CASUAL")" + tail + R"("expected_output_schema": "Answer V1"})"));
  EXPECT_FALSE(
      grammar.accepts(R"({"intent": "x", "request_type": "CASUAL", "track": "FAST", "required_sources": [],)"
                      R"( "missing_info_questions": ["a?", "b?"], "expected_output_schema": "a"})"));
}

TEST(GbnfExport, RequirementsGrammarAcceptsTheSeedWalkthroughAndEveryConstraintKind) {
  const ContractRegistry registry = builtin_registry();
  const GbnfGrammar grammar = grammar_of(registry, "requirements");
  const std::string walkthrough = R"({
  "metrics": ["revenue"],
  "group_by": ["region", "product_category"],
  "time": {"column": "date", "grain": "unknown"},
  "analysis": ["total", "compare", "trend"],
  "outputs": ["chart", "table"],
  "constraints": []
})";
  const std::string constrained =
      R"({"metrics": [], "group_by": [], "time": {"column": null, "grain": "month"},)"
      R"( "analysis": ["ranking"], "outputs": ["table"], "constraints": [)"
      R"({"type": "filter", "column": "region", "op": "in", "value": ["EMEA", "APAC"]},)"
      R"( {"type": "sort", "column": "revenue", "direction": "desc"}, {"type": "limit", "n": 10}]})";

  EXPECT_TRUE(grammar.accepts(walkthrough));
  EXPECT_TRUE(grammar.accepts(constrained));
  EXPECT_FALSE(
      grammar.accepts(R"({"metrics": [], "group_by": [], "time": {"column": null, "grain": "unknown"},)"
                      R"( "analysis": [], "outputs": [], "constraints": [{"type": "limit", "n": 0}]})"));
}

TEST(GbnfExport, NodeDeltaGrammarPutsRequiredFieldsFirstAndTakesAnySubsetOfTheOthersInOrder) {
  const ContractRegistry registry = builtin_registry();
  const GbnfGrammar grammar = grammar_of(registry, "node_delta");
  const std::string head = R"({"reasoning": [{"step_name": "Agent", "step_text": "What happened"}], )"
                           R"("requires_user_input": false, "next_agent": "supervisor")";

  EXPECT_TRUE(grammar.accepts(head + "}"));
  EXPECT_TRUE(grammar.accepts(head + R"(, "plan_steps_completed": 4, "phase": "qa"})"));
  EXPECT_FALSE(grammar.accepts(head + R"(, "phase": "qa", "plan_steps_completed": 4})"));
  EXPECT_FALSE(
      grammar.accepts(R"({"requires_user_input": false, "reasoning": [], "next_agent": "supervisor"})"));
}

TEST(GbnfExport, AnObjectWithOnlyOptionalPropertiesAcceptsNoneOrAnySubset) {
  const ContractRegistry registry = builtin_registry();
  const GbnfGrammar grammar = grammar_of(registry, "analytics_state");

  EXPECT_TRUE(grammar.accepts("{}"));
  EXPECT_TRUE(grammar.accepts(R"({"plan_steps_completed": 3, "requires_user_input": false})"));
  EXPECT_FALSE(grammar.accepts(R"({, "plan_steps_completed": 3})"));
}

TEST(GbnfExport, ConfidenceIsLimitedToTheUnitInterval) {
  const ContractRegistry registry = builtin_registry();
  const GbnfGrammar grammar = grammar_of(registry, "intent");

  EXPECT_TRUE(grammar.accepts(R"({"primary": "time_series_investigation", "confidence": 0.90})"));
  EXPECT_TRUE(grammar.accepts(R"({"primary": "ranking", "confidence": 1})"));
  EXPECT_FALSE(grammar.accepts(R"({"primary": "ranking", "confidence": 1.5})"));
}

TEST(GbnfExport, TranslatesTheCitationPatternOfPlanAdaptation) {
  const ContractRegistry registry = builtin_registry();
  const GbnfGrammar grammar = grammar_of(registry, "plan_adaptation");
  const auto change = [](const std::string& citation) {
    return R"({"changes": [{"action": "add", "step_id": "s1", "rationale": "r", "satisfies": [")" + citation +
           R"("], "tool": "aggregate", "params": {"group_by": ["region"], "agg_func": "sum"}}]})";
  };

  EXPECT_TRUE(grammar.accepts(change("analysis:total")));
  EXPECT_TRUE(grammar.accepts(change("group_by:product_category")));
  EXPECT_FALSE(grammar.accepts(change("analysis.total")));
  EXPECT_FALSE(grammar.accepts(change("analysis:histogram")));
}

TEST(GbnfExport, ExportIsDeterministic) {
  const ContractRegistry registry = builtin_registry();

  for (const std::string& name : registry.names()) {
    EXPECT_EQ(to_gbnf(*registry.find(name)).value_or("a"), to_gbnf(*registry.find(name)).value_or("b"))
        << name;
  }
}

TEST(GbnfExport, NamesTheKeywordItCannotExpress) {
  core::Result<std::string> grammar =
      schema_to_gbnf("t", R"({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}]}}})");

  ASSERT_FALSE(grammar.has_value());
  EXPECT_NE(grammar.error().message.find("allOf"), std::string::npos);
  EXPECT_EQ(grammar.error().where, "contract t schema #/properties/a/allOf");
}

TEST(GbnfExport, ListsTheKeywordsItApproximates) {
  core::Result<std::string> grammar =
      schema_to_gbnf("t", R"({"type": "array", "items": {"type": "string"}, "uniqueItems": true})");

  ASSERT_TRUE(grammar.has_value()) << grammar.error().describe();
  EXPECT_NE(grammar->find("# approximated (validate() checks them after generation): uniqueItems"),
            std::string::npos);
}

}  // namespace
}  // namespace planfirst::contracts
