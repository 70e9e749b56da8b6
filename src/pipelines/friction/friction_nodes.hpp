// The friction graph's nodes (seed 003 §5). Each reads the state and returns a delta under the
// friction_delta contract: reasoning, requires_user_input, next_agent and last_completed_node
// always; the seed's progress fields (plan_tasks with sub_agents, plan_steps_completed) and, at the
// three decision nodes (data_discovery, data_prep, synthesizer), checkpoint_message and
// checkpoint_prompt; worker nodes clear both. Every figure in a delta comes from SQL on the data.
//
// State keys of the pipeline besides the seed's: dataset_path (input), output_dir (default
// friction-out), filters, columns (input overrides), critique_enabled; dataset (data_discovery), prep
// (data_prep), friction_findings (one per lens sub-agent), synthesis (synthesizer), artifacts
// (reporting).
#pragma once

#include <memory>

#include "graph/node.hpp"
#include "pipelines/friction/friction_services.hpp"

namespace planfirst::friction {

inline constexpr const char* kDefaultOutputDir = "friction-out";

using Services = std::shared_ptr<const FrictionServices>;

// Seed §4: plans the five tasks on the first call; then routes by plan_steps_completed,
// critique_enabled, analysis_complete and the user's last message (a refusal at a checkpoint
// ends the run; after the analysis, a question goes to qa_agent).
graph::NodeFunction supervisor_node(Services services);
graph::NodeFunction data_discovery_node(Services services);
graph::NodeFunction data_prep_node(Services services);
graph::FanOutSpec friction_fan_out(Services services);
graph::NodeFunction synthesizer_node(Services services);
graph::NodeFunction critique_node(Services services);
graph::NodeFunction reporting_node(Services services);
graph::NodeFunction qa_agent_node(Services services);

// Whether `answer` refuses a checkpoint: "no", "stop", "cancel", "reject", "abort" (any case).
bool is_refusal(std::string_view answer);

}  // namespace planfirst::friction
