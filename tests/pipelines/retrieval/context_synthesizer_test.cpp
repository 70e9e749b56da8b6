#include "pipelines/retrieval/context_synthesizer.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::retrieval {
namespace {

sources::EvidenceItem item(const std::string& source, const std::string& id, const std::string& title) {
  sources::EvidenceItem evidence;
  evidence.source = source;
  evidence.id = id;
  evidence.title = title;
  evidence.fields = {{"state", "opened"}};
  return evidence;
}

QueryOutcome result_of(const std::string& plan_id, const std::string& source, const std::string& answered_by,
                       std::vector<sources::EvidenceItem> items) {
  QueryOutcome result;
  result.query_id = plan_id + "_query";
  result.plan_id = plan_id;
  result.source = source;
  result.answered_by = answered_by;
  result.items = std::move(items);
  return result;
}

TEST(RetrievalContextSynthesizer, MergesResultsInPlanOrderOnceEachWithFailuresLast) {
  const std::string question = "commits and issues";
  Reasoning reasoning;
  reasoning.intents = {{"query_commits", 0.9}};
  const std::vector<RetrievalPlan> plans = {
      {"plan1", "Retrieve issue data from YouTrack", {"youtrack"}, {}, 10},
      {"plan0", "Retrieve commit data from GitLab", {"gitlab"}, {}, 10},
      {"plan2", "Retrieve related information from general sources", {"generic"}, {}, 5}};
  const QueryOutcome commits = result_of("plan0", "gitlab", "gitlab", {item("gitlab", "g:1", "Fix login")});
  const QueryOutcome issues =
      result_of("plan1", "youtrack", "gitlab",
                {item("gitlab", "g:1", "Fix login"), item("gitlab", "g:2", "Crash on start")});
  QueryOutcome generic = result_of("plan2", "generic", "", {});
  generic.attempts = {{"generic", AttemptStatus::kNotConfigured, "source \"generic\" is not configured"}};

  const SynthesizedContext context =
      synthesize_context({question, reasoning, plans, {commits, issues, generic}});

  EXPECT_EQ(context.markdown,
            "# Context\n\nQuestion: commits and issues\n\nIntents: query_commits (0.90)\n"
            "\n## Retrieve issue data from YouTrack (gitlab, instead of youtrack)\n\n"
            "- [g:1] Fix login (state: opened)\n- [g:2] Crash on start (state: opened)\n"
            "\n## Retrieve commit data from GitLab (gitlab)\n\nNo items.\n"
            "\n## Not retrieved\n\n- plan2_query: source \"generic\" is not configured\n");
  const nlohmann::json& document = context.document.json();
  EXPECT_EQ(document["item_count"], 2);
  EXPECT_EQ(document["sections"][0]["plan_id"], "plan1");
  EXPECT_EQ(document["failures"][0]["query_id"], "plan2_query");
}

TEST(RetrievalContextSynthesizer, SameInputsSameBytes) {
  Reasoning reasoning;
  const std::vector<RetrievalPlan> plans = {{"plan0", "d", {"gitlab"}, {}, 10}};
  const std::vector<QueryOutcome> results = {
      result_of("plan0", "gitlab", "gitlab", {item("gitlab", "a", "A")})};

  const SynthesizedContext first = synthesize_context({"q", reasoning, plans, results});
  const SynthesizedContext second = synthesize_context({"q", reasoning, plans, results});

  EXPECT_EQ(first.markdown, second.markdown);
  EXPECT_EQ(first.document.dump(), second.document.dump());
}

}  // namespace
}  // namespace planfirst::retrieval
