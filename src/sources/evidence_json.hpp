// The JSON form of an EvidenceItem, shared by every pipeline that keeps evidence in graph state:
// {source, id, title, snippet, fields {name: text}, score (when ranked), provenance {source, locator,
// query, fetched_at}}. Reading is strict about the text members and names the JSON pointer at fault.
#pragma once

#include <string>

#include "core/json.hpp"
#include "core/result.hpp"
#include "sources/evidence_item.hpp"

namespace planfirst::sources {

core::Json to_json(const EvidenceItem& item);

// kInvalidArgument naming `pointer` (+ the member) when a text member is missing or not a string.
core::Result<EvidenceItem> evidence_from_json(const core::Json& json, const std::string& pointer);

}  // namespace planfirst::sources
