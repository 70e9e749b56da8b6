#include "pipelines/analyst/answer_composer.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace planfirst::analyst {
namespace {

sources::EvidenceItem item(const std::string& source, const std::string& id,
                           std::vector<std::pair<std::string, std::string>> fields = {}) {
  sources::EvidenceItem evidence;
  evidence.source = source;
  evidence.id = source + ":" + id;
  evidence.title = id;
  evidence.snippet = "text of " + id;
  evidence.fields = std::move(fields);
  evidence.provenance.query = "SELECT 1";
  return evidence;
}

AnalystPlan plan(RequestType type, std::string schema) {
  return AnalystPlan{"intent", type, Track::kQuality, {}, {}, std::move(schema)};
}

TEST(AnswerComposer, EverySourceThatAnsweredIsCitedBeforeAnySourceIsCitedTwice) {
  std::vector<sources::EvidenceItem> evidence;
  for (int i = 0; i < 9; ++i) evidence.push_back(item("policy", "p" + std::to_string(i)));
  evidence.push_back(item("doc", "d0"));
  evidence.push_back(item("doc", "d1"));

  const Answer answer =
      AnswerComposer().compose("q", plan(RequestType::kDataDefinition, "answer_v1_markdown"), evidence, {});

  ASSERT_EQ(answer.citations.size(), kMaxCitedItems);
  EXPECT_EQ(answer.citations[0], "policy:p0");
  EXPECT_EQ(answer.citations[1], "doc:d0");
  EXPECT_EQ(answer.citations[2], "policy:p1");
  EXPECT_EQ(answer.citations[3], "doc:d1");
  EXPECT_EQ(answer.citations[4], "policy:p2");
  EXPECT_NE(answer.text.find("8 of 11 evidence items are cited here"), std::string::npos) << answer.text;
}

sources::EvidenceItem section(const std::string& source, const std::string& heading, double score,
                              const std::string& text) {
  sources::EvidenceItem evidence = item(source, heading, {{"heading_path", heading}});
  evidence.title = heading;
  evidence.snippet = text;
  evidence.score = score;
  return evidence;
}

TEST(AnswerComposer, ADocumentAnswerGivesTheBestSectionInFullAndOnlyRelevantOthers) {
  const std::vector<sources::EvidenceItem> evidence{
      section("policy", "Review times", 4.8,
              "- Hotfix reviews are answered within an hour.\n- Others in a day."),
      section("doc", "Request flow", 2.9, "A typical request goes through the gateway."),
      section("policy", "Hotfixes", 6.3,
              "A hotfix fixes a P1 bug.\n\n- One reviewer.\n- Merge back the same day."),
  };

  const Answer answer = AnswerComposer().compose(
      "How do I request a hotfix?", plan(RequestType::kHowtoPolicy, "answer_v1_markdown"), evidence, {});

  EXPECT_NE(answer.text.find("From **Hotfixes** [policy:Hotfixes]:\n\nA hotfix fixes a P1 bug.\n\n- One "
                             "reviewer.\n- Merge back the same day.\n"),
            std::string::npos)
      << answer.text;
  EXPECT_NE(answer.text.find(
                "- **Review times**: Hotfix reviews are answered within an hour. [policy:Review times]"),
            std::string::npos)
      << answer.text;
  EXPECT_EQ(answer.text.find("Request flow"), std::string::npos) << answer.text;  // 2.9 < 0.75 * 6.3
  EXPECT_EQ(answer.citations, (std::vector<std::string>{"policy:Hotfixes", "policy:Review times"}));
}

TEST(AnswerComposer, AStatusListShowsEveryRowAndTheTotal) {
  std::vector<sources::EvidenceItem> evidence;
  for (int i = 1; i <= 3; ++i) {
    evidence.push_back(item("db", "list/ORB-" + std::to_string(i),
                            {{"metric", "list_open_bugs"},
                             {"kind", "list"},
                             {"unit", "issues"},
                             {"period", "as of 2026-11-25"},
                             {"key", "ORB-" + std::to_string(i)},
                             {"title", "bug " + std::to_string(i)},
                             {"priority", "P1"},
                             {"total_rows", "42"}}));
  }

  const Answer answer = AnswerComposer().compose(
      "list open bugs", plan(RequestType::kStatusList, "answer_v1_markdown"), evidence, {});

  EXPECT_NE(answer.text.find("42 issues (list_open_bugs, as of 2026-11-25); showing the first 3"),
            std::string::npos)
      << answer.text;
  EXPECT_NE(answer.text.find("- ORB-3: bug 3 (priority=P1) [db:list/ORB-3]"), std::string::npos)
      << answer.text;
  EXPECT_EQ(answer.citations.size(), 3u);
}

TEST(AnswerComposer, AMetricWithSeveralRowsCarriesTheBreakdown) {
  const std::vector<sources::EvidenceItem> evidence = {
      item("db", "bugs/P1", {{"value", "3"}, {"unit", "bugs"}}),
      item("db", "bugs/P2", {{"value", "8"}, {"unit", "bugs"}})};

  const Answer answer =
      AnswerComposer().compose("q", plan(RequestType::kStatusMetric, "status_metric_v1_json"), evidence, {});

  const nlohmann::json content = nlohmann::json::parse(answer.text);
  EXPECT_EQ(content["value"], 3.0);
  ASSERT_EQ(content["breakdown"].size(), 2u);
  EXPECT_EQ(content["breakdown"][1]["value"], "8");
  EXPECT_EQ(content["breakdown"][1]["evidence"], "db:bugs/P2");
  EXPECT_EQ(answer.citations, (std::vector<std::string>{"db:bugs/P1", "db:bugs/P2"}));
}

TEST(AnswerComposer, ASingleMetricRowHasNoBreakdown) {
  const Answer answer =
      AnswerComposer().compose("q", plan(RequestType::kStatusMetric, "status_metric_v1_json"),
                               {item("db", "rate", {{"value", "77.5"}})}, {});

  EXPECT_FALSE(nlohmann::json::parse(answer.text).contains("breakdown"));
}

}  // namespace
}  // namespace planfirst::analyst
