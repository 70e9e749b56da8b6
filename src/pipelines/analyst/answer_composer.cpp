#include "pipelines/analyst/answer_composer.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "pipelines/analyst/evidence_citation.hpp"
#include "sources/field_counts.hpp"
#include "sources/snippet.hpp"

namespace planfirst::analyst {
namespace {

constexpr std::size_t kSnippetChars = 240;

// The snippet's first line, cut at kSnippetChars (at a UTF-8 boundary), else the fields as "k=v".
std::string statement_text(const sources::EvidenceItem& item) {
  std::string text =
      sources::snippet_of(std::string_view(item.snippet).substr(0, item.snippet.find('\n')), kSnippetChars);
  if (text.empty()) {
    for (const auto& [key, value] : item.fields) text += (text.empty() ? "" : ", ") + key + "=" + value;
  }
  return text;
}

std::string bullet(const sources::EvidenceItem& item) {
  const std::string text = statement_text(item);
  std::string line = "- ";
  if (!item.title.empty()) line += "**" + item.title + "**" + (text.empty() ? "" : ": ");
  return line + text + " [" + citation_key(item) + "]\n";
}

std::string missing_lines(const std::vector<SourceReport>& reports) {
  std::string text;
  for (const SourceReport& report : reports) {
    if (report.status != "ok") text += "- " + report.source + ": " + report.message + "\n";
  }
  return text;
}

void cite_all(Answer& answer, const std::vector<const sources::EvidenceItem*>& items) {
  for (const sources::EvidenceItem* item : items) {
    std::string key = citation_key(*item);
    if (std::find(answer.citations.begin(), answer.citations.end(), key) == answer.citations.end()) {
      answer.citations.push_back(std::move(key));
    }
  }
}

// Up to kMaxCitedItems items of `source`, in their order; with no source, each source's first item
// in the order the sources answered, then each one's second, and so on, so every source that
// answered is heard (scores of different sources do not compare).
std::vector<const sources::EvidenceItem*> first_items(const std::vector<sources::EvidenceItem>& evidence,
                                                      std::string_view source = "") {
  std::vector<std::string_view> order;
  std::vector<std::vector<const sources::EvidenceItem*>> by_source;
  for (const sources::EvidenceItem& item : evidence) {
    if (!source.empty() && item.source != source) continue;
    auto at = std::find(order.begin(), order.end(), item.source);
    if (at == order.end()) {
      order.push_back(item.source);
      by_source.emplace_back();
      at = order.end() - 1;
    }
    by_source[static_cast<std::size_t>(at - order.begin())].push_back(&item);
  }
  std::vector<const sources::EvidenceItem*> items;
  for (std::size_t rank = 0; items.size() < kMaxCitedItems; ++rank) {
    bool any = false;
    for (const auto& ranked : by_source) {
      if (rank >= ranked.size() || items.size() == kMaxCitedItems) continue;
      items.push_back(ranked[rank]);
      any = true;
    }
    if (!any) break;
  }
  return items;
}

Answer status_metric(const AnalystPlan& plan, const std::vector<sources::EvidenceItem>& evidence,
                     const std::vector<SourceReport>& reports) {
  Answer answer{"status_metric_v1_json", "json", "", {}, "rules", ""};
  core::Json json{{"schema", answer.schema},
                  {"intent", plan.intent},
                  {"value", nullptr},
                  {"unit", ""},
                  {"period", ""},
                  {"sql", ""},
                  {"evidence", core::Json::array()}};
  auto metric = std::find_if(evidence.begin(), evidence.end(), [](const sources::EvidenceItem& item) {
    return item.source == "db" && !sources::field_value(item, "value").empty();
  });
  if (metric != evidence.end()) {
    const std::string value = sources::field_value(*metric, "value");
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    json["value"] = end != value.c_str() && *end == '\0' ? core::Json(number) : core::Json(value);
    json["unit"] = sources::field_value(*metric, "unit");
    json["period"] = sources::field_value(*metric, "period");
    json["sql"] = metric->provenance.query;
    json["metric"] = sources::field_value(*metric, "metric", metric->title);
    std::vector<const sources::EvidenceItem*> rows;
    for (const sources::EvidenceItem& item : evidence) {
      if (item.source == "db" && !sources::field_value(item, "value").empty()) rows.push_back(&item);
    }
    if (rows.size() > 1) {  // a breakdown ("open bugs by priority"): value is its first row's
      core::Json breakdown = core::Json::array();
      for (const sources::EvidenceItem* row : rows) {
        breakdown.push_back({{"label", row->title},
                             {"value", sources::field_value(*row, "value")},
                             {"evidence", citation_key(*row)}});
      }
      json["breakdown"] = std::move(breakdown);
    }
    cite_all(answer, rows);
  } else {
    std::string note = "no metric value was retrieved";
    for (const SourceReport& report : reports) {
      if (report.status != "ok") note += "; " + report.source + ": " + report.message;
    }
    json["note"] = note;
  }
  json["evidence"] = answer.citations;
  answer.text = json.dump(2);
  return answer;
}

Answer markdown_answer(std::string_view user_query, const std::vector<sources::EvidenceItem>& evidence,
                       const std::vector<SourceReport>& reports) {
  Answer answer{"answer_v1_markdown", "markdown", "", {}, "rules", ""};
  const std::vector<const sources::EvidenceItem*> items = first_items(evidence);
  std::string text = "**" + std::string(user_query) + "**\n\n";
  if (items.empty()) {
    text += "No evidence was retrieved for this question, so there is nothing to state yet.\n";
  } else {
    text += "From the retrieved evidence:\n\n";
    for (const sources::EvidenceItem* item : items) text += bullet(*item);
    if (items.size() < evidence.size()) {
      text += "\n" + std::to_string(items.size()) + " of " + std::to_string(evidence.size()) +
              " evidence items are cited here; the state's evidence (--json) holds all of them.\n";
    }
  }
  const std::string missing = missing_lines(reports);
  if (!missing.empty()) text += "\nSources not consulted:\n" + missing;
  cite_all(answer, items);
  answer.text = std::move(text);
  return answer;
}

Answer design_doc(std::string_view user_query, const AnalystPlan& plan,
                  const std::vector<sources::EvidenceItem>& evidence,
                  const std::vector<SourceReport>& reports) {
  Answer answer{"design_doc_v1_markdown", "markdown", "", {}, "rules", ""};
  std::string text = "# Design: " + plan.intent + "\n\n## Question\n\n" + std::string(user_query) + "\n";
  const std::vector<const sources::EvidenceItem*> docs = first_items(evidence, "doc");
  const std::vector<const sources::EvidenceItem*> policies = first_items(evidence, "policy");
  text += "\n## Context from the design documents\n\n";
  if (docs.empty()) text += "No design document was retrieved.\n";
  for (const sources::EvidenceItem* item : docs) text += bullet(*item);
  text += "\n## Constraints from policy\n\n";
  if (policies.empty()) text += "No policy was retrieved.\n";
  for (const sources::EvidenceItem* item : policies) text += bullet(*item);
  const std::string missing = missing_lines(reports);
  text += "\n## Open points\n\n" + (missing.empty() ? std::string("None recorded.\n") : missing);
  cite_all(answer, docs);
  cite_all(answer, policies);
  answer.text = std::move(text);
  return answer;
}

Answer clarification(const AnalystPlan& plan) {
  Answer answer{"clarification_v1", "json", "", {}, "rules", ""};
  const std::string question = plan.missing_info_questions.empty() ? "" : plan.missing_info_questions.front();
  answer.text =
      core::Json{{"schema", answer.schema}, {"intent", plan.intent}, {"question", question}}.dump(2);
  return answer;
}

}  // namespace

Answer AnswerComposer::compose(std::string_view user_query, const AnalystPlan& plan,
                               const std::vector<sources::EvidenceItem>& evidence,
                               const std::vector<SourceReport>& reports) const {
  if (plan.request_type == RequestType::kCasual) {
    return Answer{
        "answer_v1_markdown",
        "markdown",
        "Hello! Ask me about the project's status, metrics, design, data definitions or policies.\n",
        {},
        "rules",
        ""};
  }
  if (plan.expected_output_schema == "status_metric_v1_json") return status_metric(plan, evidence, reports);
  if (plan.expected_output_schema == "design_doc_v1_markdown")
    return design_doc(user_query, plan, evidence, reports);
  if (plan.expected_output_schema == "clarification_v1") return clarification(plan);
  return markdown_answer(user_query, evidence, reports);
}

}  // namespace planfirst::analyst
