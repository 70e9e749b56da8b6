#include "pipelines/analyst/answer_composer.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "core/join.hpp"
#include "pipelines/analyst/evidence_citation.hpp"
#include "sources/field_counts.hpp"
#include "sources/snippet.hpp"

namespace planfirst::analyst {
namespace {

constexpr std::size_t kStatementBytes = 400;
constexpr double kRelevantShare = 0.75;  // documents scoring less than this share of the best are left out

// The snippet's first sentence or list item, else the fields as "k=v".
std::string statement_text(const sources::EvidenceItem& item) {
  std::string text = sources::lead_statement(item.snippet, kStatementBytes);
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
  auto valued = [](const sources::EvidenceItem& item) {
    return item.source == "db" && !sources::field_value(item, "value").empty();
  };
  // The figure asked for: the catalog's headline over the rows when it has one, else the one row.
  auto metric = std::find_if(evidence.begin(), evidence.end(), [&](const sources::EvidenceItem& item) {
    return valued(item) && !sources::field_value(item, "headline").empty();
  });
  if (metric == evidence.end()) metric = std::find_if(evidence.begin(), evidence.end(), valued);
  if (metric != evidence.end()) {
    const std::string value = sources::field_value(*metric, "value");
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    json["value"] = end != value.c_str() && *end == '\0' ? core::Json(number) : core::Json(value);
    json["unit"] = sources::field_value(*metric, "unit");
    json["period"] = sources::field_value(*metric, "period");
    json["sql"] = metric->provenance.query;
    json["metric"] = sources::field_value(*metric, "metric", metric->title);
    if (const std::string computed = sources::field_value(*metric, "computed"); !computed.empty())
      json["computed"] = computed;
    if (const std::string note = sources::field_value(*metric, "note"); !note.empty()) json["note"] = note;
    if (const std::string definition = sources::field_value(*metric, "definition"); !definition.empty())
      json["definition"] = definition;
    std::vector<const sources::EvidenceItem*> rows;
    for (const sources::EvidenceItem& item : evidence) {
      if (valued(item) && sources::field_value(item, "headline").empty()) rows.push_back(&item);
    }
    if (!rows.empty() && (&*metric != rows.front() || rows.size() > 1)) {  // the rows behind the figure
      core::Json breakdown = core::Json::array();
      for (const sources::EvidenceItem* row : rows) {
        breakdown.push_back({{"label", row->title},
                             {"value", sources::field_value(*row, "value")},
                             {"evidence", citation_key(*row)}});
      }
      json["breakdown"] = std::move(breakdown);
    }
    cite_all(answer, {&*metric});
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

bool is_list_row(const sources::EvidenceItem& item) {
  return item.source == "db" && sources::field_value(item, "kind") == "list" &&
         !sources::field_value(item, "key").empty();
}

// One row of a status list: "ORB-73: title (type=story, priority=P2, ...) [cite]", empty values left out.
std::string list_line(const sources::EvidenceItem& item) {
  static constexpr std::string_view kNotColumns[] = {"metric",   "kind", "query",      "unit", "period",
                                                     "database", "note", "total_rows", "key",  "title"};
  std::vector<std::string> columns;
  for (const auto& [key, value] : item.fields) {
    if (value.empty() ||
        std::find(std::begin(kNotColumns), std::end(kNotColumns), key) != std::end(kNotColumns))
      continue;
    columns.push_back(key + "=" + value);
  }
  return "- " + sources::field_value(item, "key") + ": " + sources::field_value(item, "title") +
         (columns.empty() ? "" : " (" + core::join(columns, ", ") + ")") + " [" + citation_key(item) + "]\n";
}

// A status list answers with every row it returned and how many there are in all.
Answer list_answer(std::string_view user_query, const std::vector<const sources::EvidenceItem*>& rows,
                   const std::vector<SourceReport>& reports) {
  Answer answer{"answer_v1_markdown", "markdown", "", {}, "rules", ""};
  const sources::EvidenceItem& first = *rows.front();
  const std::string total = sources::field_value(first, "total_rows", std::to_string(rows.size()));
  std::string text = "**" + std::string(user_query) + "**\n\n" + total + " " +
                     sources::field_value(first, "unit") + " (" + sources::field_value(first, "metric") +
                     ", " + sources::field_value(first, "period") + ")";
  text += total == std::to_string(rows.size())
              ? ":\n\n"
              : "; showing the first " + std::to_string(rows.size()) +
                    " (narrow the question by sprint, priority, component or "
                    "person for the rest):\n\n";
  for (const sources::EvidenceItem* row : rows) text += list_line(*row);
  if (const std::string note = sources::field_value(first, "note"); !note.empty())
    text += "\nNote: " + note + "\n";
  const std::string missing = missing_lines(reports);
  if (!missing.empty()) text += "\nSources not consulted:\n" + missing;
  cite_all(answer, rows);
  answer.text = std::move(text);
  return answer;
}

bool is_document(const sources::EvidenceItem& item) {
  return !sources::field_value(item, "heading_path").empty();
}

// The document sections that answer, best first: every doc and policy section scoring at least
// kRelevantShare of the best one (their scores are coverage of the question's words).
std::vector<const sources::EvidenceItem*> relevant_documents(
    const std::vector<sources::EvidenceItem>& evidence) {
  std::vector<const sources::EvidenceItem*> documents;
  for (const sources::EvidenceItem& item : evidence) {
    if (is_document(item)) documents.push_back(&item);
  }
  auto score = [](const sources::EvidenceItem* item) { return item->score.value_or(0.0); };
  std::stable_sort(
      documents.begin(), documents.end(),
      [&](const sources::EvidenceItem* a, const sources::EvidenceItem* b) { return score(a) > score(b); });
  if (documents.empty()) return documents;
  const double enough = kRelevantShare * score(documents.front());
  auto weak = std::find_if(documents.begin(), documents.end(),
                           [&](const sources::EvidenceItem* item) { return score(item) < enough; });
  documents.erase(weak, documents.end());
  if (documents.size() > kMaxCitedItems) documents.resize(kMaxCitedItems);
  return documents;
}

// Answers from documents: the best section in full (its steps), then the other relevant ones.
Answer document_answer(std::string_view user_query,
                       const std::vector<const sources::EvidenceItem*>& documents,
                       const std::vector<SourceReport>& reports) {
  Answer answer{"answer_v1_markdown", "markdown", "", {}, "rules", ""};
  const sources::EvidenceItem& best = *documents.front();
  std::string text = "**" + std::string(user_query) + "**\n\nFrom **" + best.title + "** [" +
                     citation_key(best) + "]:\n\n" + best.snippet + "\n";
  if (documents.size() > 1) {
    text += "\nAlso relevant:\n\n";
    for (std::size_t i = 1; i < documents.size(); ++i) text += bullet(*documents[i]);
  }
  const std::string missing = missing_lines(reports);
  if (!missing.empty()) text += "\nSources not consulted:\n" + missing;
  cite_all(answer, documents);
  answer.text = std::move(text);
  return answer;
}

Answer markdown_answer(std::string_view user_query, const std::vector<sources::EvidenceItem>& evidence,
                       const std::vector<SourceReport>& reports) {
  const std::vector<const sources::EvidenceItem*> documents = relevant_documents(evidence);
  const bool only_documents = std::all_of(evidence.begin(), evidence.end(), is_document);
  if (!documents.empty() && only_documents) return document_answer(user_query, documents, reports);
  std::vector<const sources::EvidenceItem*> list_rows;
  for (const sources::EvidenceItem& item : evidence) {
    if (is_list_row(item)) list_rows.push_back(&item);
  }
  if (!list_rows.empty() && list_rows.size() == evidence.size())
    return list_answer(user_query, list_rows, reports);
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
