// AnalystPlan is the value of contract analyst_plan (seed 000 §2): intent, request type, track, the
// sources Retrieve may query, at most one question and the answer's output schema id; plus the
// seed's _fallback_plan. A plain value; JSON keys as the seed spells them.
#pragma once

#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/analyst/request_type.hpp"

namespace planfirst::analyst {

struct AnalystPlan {
  std::string intent;
  RequestType request_type = RequestType::kKnowledgeQa;
  Track track = Track::kQuality;
  std::vector<std::string> required_sources;
  std::vector<std::string> missing_info_questions;
  std::string expected_output_schema;
};

core::Json to_json(const AnalystPlan& plan);
// kInvalidArgument naming the JSON pointer of a missing or mistyped member or an unknown enum value.
core::Result<AnalystPlan> plan_from_json(const core::Json& json);

// The seed's _fallback_plan: intent "parse_error", the router's request type (KNOWLEDGE_QA when the
// router set none), QUALITY, ["policy"], no questions, answer_v1_markdown; its sources then keep the
// type's rules as any plan must (enforce_sources): a STATUS_* fallback reads ["policy", "db"], a
// TROUBLESHOOTING one ["policy", "db", "neo4j", "doc"], a CASUAL one ["policy"].
AnalystPlan fallback_plan(RequestType router_type);

}  // namespace planfirst::analyst
