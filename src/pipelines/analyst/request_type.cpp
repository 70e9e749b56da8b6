#include "pipelines/analyst/request_type.hpp"

namespace planfirst::analyst {

std::string_view to_string(RequestType type) {
  switch (type) {
    case RequestType::kStatusMetric: return "STATUS_METRIC";
    case RequestType::kStatusSummary: return "STATUS_SUMMARY";
    case RequestType::kStatusList: return "STATUS_LIST";
    case RequestType::kHowtoPolicy: return "HOWTO_POLICY";
    case RequestType::kDesignArch: return "DESIGN_ARCH";
    case RequestType::kDataDefinition: return "DATA_DEFINITION";
    case RequestType::kTroubleshooting: return "TROUBLESHOOTING";
    case RequestType::kKnowledgeQa: return "KNOWLEDGE_QA";
    case RequestType::kCasual: return "CASUAL";
  }
  return "KNOWLEDGE_QA";
}

std::optional<RequestType> parse_request_type(std::string_view text) {
  for (RequestType type : kAllRequestTypes) {
    if (to_string(type) == text) return type;
  }
  return std::nullopt;
}

std::string_view to_string(Track track) {
  return track == Track::kFast ? "FAST" : "QUALITY";
}

std::optional<Track> parse_track(std::string_view text) {
  if (text == "FAST") return Track::kFast;
  if (text == "QUALITY") return Track::kQuality;
  return std::nullopt;
}

bool is_status(RequestType type) {
  return type == RequestType::kStatusMetric || type == RequestType::kStatusSummary ||
         type == RequestType::kStatusList;
}

}  // namespace planfirst::analyst
