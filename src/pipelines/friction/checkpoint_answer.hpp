// How a person answers the friction graph's three checkpoints (seed 003 §3). "yes" (or "approve",
// or nothing) continues; a refusal ("no", "stop") ends the run; a JSON object changes what the
// checkpoint asks about, and the node runs again with the change and asks again:
//   data_discovery  {"columns": {"summary": "notes"}}        contract friction_discovery_answer
//   data_prep       {"filters": {"channels": ["chat"], "from": "2025-03-01", "to": "2025-03-31"}}
//                                                            contract friction_prep_answer
//   synthesizer     {"focus": {"lenses": ["digital"], "top_drivers": 5}}
//                                                            contract friction_synthesis_answer
// A bad answer is kInvalidArgument naming the field (a JSON pointer into the answer) and nothing is
// merged, so the run stays at its checkpoint.
#pragma once

#include <string>
#include <string_view>

#include "contracts/contract_registry.hpp"
#include "core/json.hpp"
#include "graph/compiled_graph.hpp"
#include "pipelines/friction/friction_services.hpp"

namespace planfirst::friction {

// The graph's answer function (GraphSettings::answer). REQUIRES: `contracts` outlives it.
graph::AnswerFunction checkpoint_answer(std::shared_ptr<const FrictionServices> services,
                                        const contracts::ContractRegistry& contracts);

// What the checkpoint of `node` accepts, in a line the checkpoint message ends with; `state` holds
// the dataset (for the channel names) once data_discovery ran.
std::string answer_help(std::string_view node, const FrictionRules& rules, const core::Json& dataset);

// Whether `node` is one of the three checkpoints above.
bool is_checkpoint(std::string_view node);

// Whether `answer` approves a checkpoint: "", "yes", "y", "ok", "approve", "continue", "proceed", ...
bool is_approval(std::string_view answer);

}  // namespace planfirst::friction
