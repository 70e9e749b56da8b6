// The state assembler turns the writes a Checkpointer returns for a checkpoint back into the state
// object: kReplace and kSnapshot set a key's value, kAppend appends its array items. Its inverses
// serve the runtime and prune: how many appends follow each key's last snapshot (when to write the
// next one), and the writes folded into one per key. Pure functions; corrupt JSON is an error value.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "graph/checkpointer.hpp"

namespace planfirst::graph {

// Applies `writes` in order to an empty object. A write whose value is not JSON, or an append that
// is not an array or lands on a non-array value, is kInvalidArgument naming the key and the step.
core::Result<core::Json> assemble_state(const std::vector<StepWrite>& writes);

// Per key that has any kAppend: how many kAppend writes follow its last kReplace or kSnapshot.
std::map<std::string, std::size_t> appends_since_snapshot(const std::vector<StepWrite>& writes);

// The writes of a state (as writes_for_state returns them) folded into one write per key at `step`,
// so that assembling them gives the same state: a key whose last write is a kReplace or kSnapshot
// keeps that write; a key that ends in appends becomes one kSnapshot of its whole array. By key.
core::Result<std::vector<KeyWrite>> fold_writes(const std::vector<StepWrite>& writes);

}  // namespace planfirst::graph
