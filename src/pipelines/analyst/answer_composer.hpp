// AnswerComposer writes the answer offline, deterministically, from the plan and the evidence: the
// same plan, evidence and reports give the same bytes. Every Markdown statement drawn from evidence
// ends with its citation "[<key>]", at most kMaxCitedItems taken round-robin over the sources in
// the order they answered; status_metric_v1_json takes value, unit and period from the first db item
// that has a "value" field and the SQL from that item's provenance, with a "breakdown" of every such
// item when there are several; CASUAL gets a short reply without evidence. Stateless; threads may
// share one.
#pragma once

#include <string_view>
#include <vector>

#include "pipelines/analyst/analyst_plan.hpp"
#include "pipelines/analyst/answer.hpp"
#include "pipelines/analyst/source_report.hpp"
#include "sources/evidence_item.hpp"

namespace planfirst::analyst {

inline constexpr std::size_t kMaxCitedItems = 8;

class AnswerComposer {
 public:
  Answer compose(std::string_view user_query, const AnalystPlan& plan,
                 const std::vector<sources::EvidenceItem>& evidence,
                 const std::vector<SourceReport>& reports) const;
};

}  // namespace planfirst::analyst
