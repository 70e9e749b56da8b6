#include "pipelines/analyst/source_report.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::analyst {

core::Json to_json(const std::vector<SourceReport>& reports) {
  core::Json json = core::Json::array();
  for (const SourceReport& report : reports) {
    json.push_back({{"source", report.source},
                    {"status", report.status},
                    {"items", report.items},
                    {"message", report.message}});
  }
  return json;
}

std::vector<SourceReport> source_reports_from_json(const core::Json& json) {
  std::vector<SourceReport> reports;
  if (!json.is_array()) return reports;
  for (const core::Json& entry : json) {
    if (!entry.is_object()) continue;
    reports.push_back({entry.value("source", std::string()), entry.value("status", std::string()),
                       entry.value("items", std::size_t{0}), entry.value("message", std::string())});
  }
  return reports;
}

}  // namespace planfirst::analyst
