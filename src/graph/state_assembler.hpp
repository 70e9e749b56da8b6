// The state assembler turns the writes a Checkpointer returns for a checkpoint back into the state
// object: kReplace and kSnapshot set a key's value, kAppend appends its array items, kChunk places
// its items from its index. Its inverses serve the runtime and prune: the appends pending since each
// key's last chunk (what the next chunk holds), the write for one more append, and the writes folded
// into one per key. Pure functions; corrupt JSON is an error value.
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

// The kAppend writes of one append-only key since its last kReplace, kSnapshot or kChunk.
struct PendingAppends {
  std::size_t appends = 0;
  std::size_t items = 0;  // items those appends added: the tail of the key's array
  bool operator==(const PendingAppends&) const = default;
};
using PendingAppendsByKey = std::map<std::string, PendingAppends>;

// Per key that has pending appends at the end of `writes` (as writes_for_state returns them).
PendingAppendsByKey pending_appends(const std::vector<StepWrite>& writes);

// The write recording that a step appended `items` to `key`, whose whole array is now `value`: a
// kAppend while fewer than `chunk_every` appends are pending, else one kChunk of every pending item
// (which then clears). Stored bytes stay linear in the items, and a read needs at most
// `chunk_every` - 1 appends after the last chunk. REQUIRES: `items` is an array, `value` ends with
// it, and no write but these appends changed `value` since the key's last chunk or snapshot.
KeyWrite append_write(const std::string& key, const core::Json& items, const core::Json& value,
                      PendingAppendsByKey& pending, std::size_t chunk_every);

// The writes of a state (as writes_for_state returns them) folded into one write per key at `step`,
// so that assembling them gives the same state: a key whose last write is a kReplace or kSnapshot
// keeps that write; a key that ends in appends becomes one kSnapshot of its whole array. By key.
core::Result<std::vector<KeyWrite>> fold_writes(const std::vector<StepWrite>& writes);

}  // namespace planfirst::graph
