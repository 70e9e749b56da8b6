// The seed's source tables (§3) and what else follows from a request type alone: the sources a plan
// must name and may not name, the answer format, the kind of record a source is asked for, and which
// types are high-stakes (§5). Pure functions over constants.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pipelines/analyst/request_type.hpp"

namespace planfirst::analyst {

// REQUIRED_SOURCES_BY_TYPE: STATUS_* -> db; HOWTO_POLICY, DATA_DEFINITION -> policy, doc; DESIGN_ARCH
// -> doc, policy; TROUBLESHOOTING -> db, neo4j; KNOWLEDGE_QA -> doc, neo4j; CASUAL -> none.
const std::vector<std::string>& required_sources_by_type(RequestType type);
// FORBIDDEN_SOURCES_BY_TYPE: STATUS_* -> doc; none otherwise.
const std::vector<std::string>& forbidden_sources_by_type(RequestType type);
// Sources this project adds to the seed's table: TROUBLESHOOTING -> doc (post-incident reviews,
// failure behaviour and runbooks are documents; the seed forbids doc only for STATUS_*).
const std::vector<std::string>& additional_sources_by_type(RequestType type);
// What a plan of `type` retrieves at least: the required sources, then the additional ones.
std::vector<std::string> planned_sources_by_type(RequestType type);

// A plan's sources after enforcement, and one note per change ("repair:...") for plan_review.
struct SourceRepair {
  std::vector<std::string> sources;
  std::vector<std::string> notes;  // empty when the sources already kept the rules
};
// Enforces §3-§4 and §8 on `sources`: forbidden ones are removed, then every planned source missing
// is added at the end (in table order). The plan's other sources and their order are kept.
SourceRepair enforce_sources(RequestType type, std::vector<std::string> sources);

// The high-stakes set: DESIGN_ARCH, HOWTO_POLICY, DATA_DEFINITION, TROUBLESHOOTING. A wrong answer
// to one of them costs a design, a policy breach, a wrong number definition or a longer outage.
bool is_high_stakes(RequestType type);

// status_metric_v1_json for STATUS_METRIC, design_doc_v1_markdown for DESIGN_ARCH,
// answer_v1_markdown otherwise.
std::string_view expected_output_schema_for(RequestType type);

// SourceQuery::kind for a plan of this type: "metric", "summary", "list" for the STATUS_* types,
// "" (let the source decide) otherwise.
std::string_view source_query_kind_for(RequestType type);

}  // namespace planfirst::analyst
