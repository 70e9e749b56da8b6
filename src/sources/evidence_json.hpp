// The JSON form of an EvidenceItem, shared by every pipeline that keeps evidence in graph state:
// {source, id, title, snippet, fields {name: text}, score (when ranked), provenance {source, locator,
// query, fetched_at}}. Reading takes an absent or null text member as "" and names the JSON
// pointer of a member that is not text.
#pragma once

#include <string>

#include "core/json.hpp"
#include "core/result.hpp"
#include "sources/evidence_item.hpp"

namespace planfirst::sources {

core::Json to_json(const EvidenceItem& item);

// kInvalidArgument naming `pointer` (+ the member) when `json` is no object or a text member holds
// something other than a string.
core::Result<EvidenceItem> evidence_from_json(const core::Json& json, const std::string& pointer);

}  // namespace planfirst::sources
