#include "pipelines/retrieval/reasoning_structure.hpp"

#include <gtest/gtest.h>

#include "retrieval_fixture.hpp"

namespace planfirst::retrieval {
namespace {

TEST(RetrievalReasoningStructure, OneHypothesisPerIntentWithDependenciesAndASynthesis) {
  const IntentRules rules = testing::shipped_intent_rules();

  const std::vector<Hypothesis> hypotheses =
      build_hypotheses({{"query_analytics", 0.8}, {"query_commits", 0.7}, {"mystery", 0.5}}, rules);

  ASSERT_EQ(hypotheses.size(), 4u);
  EXPECT_EQ(hypotheses[0].id, "h0");
  EXPECT_EQ(hypotheses[0].description, "Compute metrics over the retrieved activity");
  EXPECT_EQ(hypotheses[0].dependencies, (std::vector<std::string>{"h1"}));
  EXPECT_EQ(hypotheses[1].description, "Retrieve commit data");
  EXPECT_TRUE(hypotheses[1].dependencies.empty());
  EXPECT_EQ(hypotheses[2].description, rules.unknown_intent_hypothesis);
  EXPECT_EQ(hypotheses[3].dependencies, (std::vector<std::string>{"h0", "h1", "h2"}));
}

TEST(RetrievalReasoningStructure, NoIntentsNoHypotheses) {
  EXPECT_TRUE(build_hypotheses({}, testing::shipped_intent_rules()).empty());
}

}  // namespace
}  // namespace planfirst::retrieval
