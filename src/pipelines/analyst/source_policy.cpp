#include "pipelines/analyst/source_policy.hpp"

namespace planfirst::analyst {

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
