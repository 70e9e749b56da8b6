#include "sources/metric_selector.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace planfirst::sources {
namespace {

const MetricCatalog& catalog() {
  static const MetricCatalog loaded = *MetricCatalog::load(core::AssetStore());
  return loaded;
}

std::string chosen(std::string_view question, const QuestionMentions& mentions = {},
                   std::string_view kind = "") {
  auto entry = choose_metric(catalog(), question, kind, mentions);
  return entry ? (*entry)->name : "error: " + entry.error().message;
}

TEST(MetricSelector, PicksTheEntryAQuestionAsksFor) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"What is the sprint completion rate?", "sprint_completion_rate"},
      {"what was the completion rate of sprint 12", "sprint_completion_rate"},
      {"what's our velocity", "velocity"},
      {"how many story points did we complete last sprint?", "velocity"},
      {"how many open bugs do we have by priority", "open_bugs_by_priority"},
      {"list all open P1 bugs", "list_open_bugs"},
      {"show me the critical bugs", "list_open_bugs"},
      {"what's the median lead time last month", "lead_time"},
      {"throughput per week over the last 4 weeks", "throughput"},
      {"how many items are overdue?", "overdue_items"},
      {"what is overdue?", "list_overdue_items"},
      {"who is working on what", "work_in_progress"},
      {"summarize the current sprint", "sprint_summary"},
      {"how is the sprint going?", "sprint_summary"},
      {"list the issues in sprint 12", "list_sprint_issues"},
  };
  for (const auto& [question, expected] : cases) EXPECT_EQ(chosen(question), expected) << question;
}

TEST(MetricSelector, AnEntryThatNeedsAPersonOrComponentWaitsForOne) {
  QuestionMentions priya;
  priya.person = "priya.raman";
  QuestionMentions billing;
  billing.component = "billing-engine";

  EXPECT_EQ(chosen("what is Priya working on?", priya), "list_person_issues");
  EXPECT_EQ(chosen("open issues in billing engine", billing), "list_component_issues");
  EXPECT_NE(chosen("open issues in the gateway"), "list_component_issues") << "no component named";
}

TEST(MetricSelector, TheKindNarrowsTheChoice) {
  EXPECT_EQ(chosen("open bugs", {}, "list"), "list_open_bugs");
  EXPECT_EQ(chosen("open bugs", {}, "metric"), "open_bugs_by_priority");
  EXPECT_EQ(chosen("open bugs", {}, "STATUS_LIST"), "list_open_bugs");
  EXPECT_EQ(chosen("how is it going", {}, "STATUS_SUMMARY"), "sprint_summary");
  EXPECT_EQ(chosen("anything at all", {}, "velocity"), "velocity");
  EXPECT_EQ(chosen("open bugs", {}, "chart").rfind("error: ", 0), 0u);
}

TEST(MetricSelector, TiesGoToTheEntryListedFirst) {
  auto catalog = MetricCatalog::parse(R"(entries:
  - {name: first, kind: metric, description: d, unit: u, phrases: [status], queries: [{id: q, sql: SELECT 1}]}
  - {name: second, kind: metric, description: d, unit: u, phrases: [status], queries: [{id: q, sql: SELECT 1}]}
)",
                                      "test.yaml");
  ASSERT_TRUE(catalog) << catalog.error().describe();

  auto entry = choose_metric(*catalog, "status please", "", {});

  ASSERT_TRUE(entry);
  EXPECT_EQ((*entry)->name, "first");
}

}  // namespace
}  // namespace planfirst::sources
