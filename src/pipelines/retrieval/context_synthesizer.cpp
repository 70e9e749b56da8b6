#include "pipelines/retrieval/context_synthesizer.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>

namespace planfirst::retrieval {
namespace {

const RetrievalPlan* plan_named(const std::vector<RetrievalPlan>& plans, const std::string& id) {
  for (const RetrievalPlan& plan : plans) {
    if (plan.id == id) return &plan;
  }
  return nullptr;
}

std::string item_line(const sources::EvidenceItem& item) {
  std::string line = "- [" + item.id + "] " + item.title;
  if (!item.snippet.empty()) line += ": " + item.snippet;
  std::string fields;
  for (const auto& [name, value] : item.fields) fields += (fields.empty() ? "" : ", ") + name + ": " + value;
  if (!fields.empty()) line += " (" + fields + ")";
  return line + "\n";
}

}  // namespace

SynthesizedContext synthesize_context(const ContextInputs& inputs) {
  SynthesizedContext context;
  std::string& md = context.markdown;
  md += "# Context\n\nQuestion: " + inputs.question + "\n\nIntents:";
  core::Json intents = core::Json::array();
  for (const Intent& intent : inputs.reasoning.intents) {
    md += fmt::format(" {} ({:.2f})", intent.type, intent.confidence);
    intents.push_back(to_json(intent));
  }
  md += "\n";

  // Results in the order of the plans they answer (plans are sorted by priority), then query order.
  std::vector<const QueryOutcome*> ordered;
  for (const RetrievalPlan& plan : inputs.plans) {
    for (const QueryOutcome& result : inputs.results) {
      if (result.plan_id == plan.id) ordered.push_back(&result);
    }
  }
  for (const QueryOutcome& result : inputs.results) {
    if (plan_named(inputs.plans, result.plan_id) == nullptr) ordered.push_back(&result);
  }

  std::set<std::string> seen;
  core::Json sections = core::Json::array();
  core::Json failures = core::Json::array();
  std::size_t item_count = 0;
  for (const QueryOutcome* result : ordered) {
    const RetrievalPlan* plan = plan_named(inputs.plans, result->plan_id);
    const std::string description = plan != nullptr ? plan->description : result->query_id;
    if (!result->ok()) {
      failures.push_back({{"query_id", result->query_id},
                          {"source", result->source},
                          {"message", result->failure_message()}});
      continue;
    }
    md += "\n## " + description + " (" + result->answered_by +
          (result->answered_by != result->source ? ", instead of " + result->source : "") + ")\n\n";
    core::Json items = core::Json::array();
    for (const sources::EvidenceItem& item : result->items) {
      if (!seen.insert(item.source + "\n" + item.id).second) continue;
      md += item_line(item);
      items.push_back(sources::to_json(item));
      ++item_count;
    }
    if (items.empty()) md += "No items.\n";
    sections.push_back({{"query_id", result->query_id},
                        {"plan_id", result->plan_id},
                        {"description", description},
                        {"priority", plan != nullptr ? plan->priority : 0},
                        {"source", result->answered_by},
                        {"truncated", result->truncated},
                        {"items", std::move(items)}});
  }
  if (!failures.empty()) {
    md += "\n## Not retrieved\n\n";
    for (const core::Json& failure : failures) {
      md +=
          "- " + failure["query_id"].get<std::string>() + ": " + failure["message"].get<std::string>() + "\n";
    }
  }
  context.document = graph::JsonValue(core::Json{{"question", inputs.question},
                                                 {"intents", std::move(intents)},
                                                 {"sections", std::move(sections)},
                                                 {"failures", std::move(failures)},
                                                 {"item_count", item_count}});
  return context;
}

}  // namespace planfirst::retrieval
