// How answers cite evidence: an item's citation key is its id when the id already starts with
// "<source>:", else "<source>:<id>" (e.g. "doc:architecture.md#Component map"), written in brackets
// in an answer. citations_in() finds every "[<source>:<rest>]" in a text, in order, without repeats.
// Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sources/evidence_item.hpp"

namespace planfirst::analyst {

std::string citation_key(const sources::EvidenceItem& item);

std::vector<std::string> citations_in(std::string_view text);

// The `keys` that name no item of `retrieved`, in order (empty: every key names retrieved evidence).
std::vector<std::string> unknown_keys(std::vector<std::string> keys,
                                      const std::vector<sources::EvidenceItem>& retrieved);

}  // namespace planfirst::analyst
