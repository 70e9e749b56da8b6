// The nine request types and two tracks of seed 000, spelled as the seed spells them in JSON, with
// to_string/parse beside each enum. Pure values and functions.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace planfirst::analyst {

enum class RequestType {
  kStatusMetric,
  kStatusSummary,
  kStatusList,
  kHowtoPolicy,
  kDesignArch,
  kDataDefinition,
  kTroubleshooting,
  kKnowledgeQa,
  kCasual,
};

inline constexpr std::array<RequestType, 9> kAllRequestTypes = {
    RequestType::kStatusMetric,    RequestType::kStatusSummary, RequestType::kStatusList,
    RequestType::kHowtoPolicy,     RequestType::kDesignArch,    RequestType::kDataDefinition,
    RequestType::kTroubleshooting, RequestType::kKnowledgeQa,   RequestType::kCasual};

std::string_view to_string(RequestType type);  // "STATUS_METRIC", ...
std::optional<RequestType> parse_request_type(std::string_view text);
bool is_status(RequestType type);  // STATUS_METRIC, STATUS_SUMMARY or STATUS_LIST

enum class Track { kFast, kQuality };

std::string_view to_string(Track track);  // "FAST", "QUALITY"
std::optional<Track> parse_track(std::string_view text);

}  // namespace planfirst::analyst
