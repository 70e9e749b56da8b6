// choose_metric picks the catalog entry a status question asks for: each of an entry's phrases found
// in the question (its words in order, at most one other word between two, on Snowball stems) adds
// its word count to the entry's score; the highest wins, ties go to the entry listed first.
// Deterministic; a pure function.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "sources/metric_catalog.hpp"
#include "sources/question_mentions.hpp"

namespace planfirst::sources {

// `kind` narrows the candidates: "metric" (or "metrics"), "summary", "list" (or the analyst's
// STATUS_METRIC, STATUS_SUMMARY, STATUS_LIST), an entry's own name (chosen whatever the question
// says), or "" for all. No phrase found chooses nothing (never an unrelated entry), unless the kind
// has a single candidate. An entry whose required parameter `mentions` lacks is no candidate.
// kNotFound when nothing matches (the message lists the kind's names); kInvalidArgument for an
// unknown kind.
core::Result<const MetricEntry*> choose_metric(const MetricCatalog& catalog, std::string_view question,
                                               std::string_view kind, const QuestionMentions& mentions);

}  // namespace planfirst::sources
