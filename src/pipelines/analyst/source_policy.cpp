#include "pipelines/analyst/source_policy.hpp"

#include <algorithm>

#include "core/join.hpp"

namespace planfirst::analyst {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

const std::vector<std::string>& required_sources_by_type(RequestType type) {
  static const std::vector<std::string> kDb{"db"};
  static const std::vector<std::string> kPolicyDoc{"policy", "doc"};
  static const std::vector<std::string> kDocPolicy{"doc", "policy"};
  static const std::vector<std::string> kDbNeo4j{"db", "neo4j"};
  static const std::vector<std::string> kDocNeo4j{"doc", "neo4j"};
  static const std::vector<std::string> kNone{};
  switch (type) {
    case RequestType::kStatusMetric:
    case RequestType::kStatusSummary:
    case RequestType::kStatusList: return kDb;
    case RequestType::kHowtoPolicy:
    case RequestType::kDataDefinition: return kPolicyDoc;
    case RequestType::kDesignArch: return kDocPolicy;
    case RequestType::kTroubleshooting: return kDbNeo4j;
    case RequestType::kKnowledgeQa: return kDocNeo4j;
    case RequestType::kCasual: return kNone;
  }
  return kNone;
}

const std::vector<std::string>& forbidden_sources_by_type(RequestType type) {
  static const std::vector<std::string> kDoc{"doc"};
  static const std::vector<std::string> kNone{};
  return is_status(type) ? kDoc : kNone;
}

const std::vector<std::string>& additional_sources_by_type(RequestType type) {
  static const std::vector<std::string> kDoc{"doc"};
  static const std::vector<std::string> kNone{};
  return type == RequestType::kTroubleshooting ? kDoc : kNone;
}

std::vector<std::string> planned_sources_by_type(RequestType type) {
  std::vector<std::string> sources = required_sources_by_type(type);
  for (const std::string& source : additional_sources_by_type(type)) {
    if (!contains(sources, source)) sources.push_back(source);
  }
  return sources;
}

SourceRepair enforce_sources(RequestType type, std::vector<std::string> sources) {
  SourceRepair repair;
  const std::string plan = "a " + std::string(to_string(type)) + " plan";
  std::vector<std::string> removed;
  for (std::string& source : sources) {
    if (contains(forbidden_sources_by_type(type), source)) {
      if (!contains(removed, source)) removed.push_back(source);
    } else {
      repair.sources.push_back(std::move(source));
    }
  }
  if (!removed.empty())
    repair.notes.push_back("repair:source_forbidden removed " + core::join(removed, ", ") + " from " + plan);
  std::vector<std::string> added;
  for (const std::string& source : planned_sources_by_type(type)) {
    if (contains(repair.sources, source)) continue;
    repair.sources.push_back(source);
    added.push_back(source);
  }
  if (!added.empty())
    repair.notes.push_back("repair:required_sources added " + core::join(added, ", ") + " to " + plan);
  return repair;
}

bool is_high_stakes(RequestType type) {
  return type == RequestType::kDesignArch || type == RequestType::kHowtoPolicy ||
         type == RequestType::kDataDefinition || type == RequestType::kTroubleshooting;
}

std::string_view expected_output_schema_for(RequestType type) {
  if (type == RequestType::kStatusMetric) return "status_metric_v1_json";
  if (type == RequestType::kDesignArch) return "design_doc_v1_markdown";
  return "answer_v1_markdown";
}

std::string_view source_query_kind_for(RequestType type) {
  if (type == RequestType::kStatusMetric) return "metric";
  if (type == RequestType::kStatusSummary) return "summary";
  if (type == RequestType::kStatusList) return "list";
  return "";
}

}  // namespace planfirst::analyst
