// GraphRows is one answer of a graph question as both graph backends return it (columns, then rows
// of values as text, "" for null); graph_evidence turns it into evidence items: one per row, id
// "neo4j:<question>/<entity>/<key columns>", the question's title template filled in, every column a
// field. The same rows give the same items whichever backend produced them. Pure functions.
#pragma once

#include <string>
#include <vector>

#include "sources/evidence_item.hpp"
#include "sources/graph_questions.hpp"

namespace planfirst::sources {

struct GraphRows {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // each as long as `columns`
};

// Fills "{column}" and "{entity}" placeholders of `text` from `row`; unknown names stay as written.
std::string fill_graph_template(const std::string& text, const GraphRows& rows, std::size_t row,
                                const std::string& entity_id);

// `origin` gives each item's provenance (source, locator, query, fetched_at) as is.
std::vector<EvidenceItem> graph_evidence(const GraphMatch& match, const GraphRows& rows,
                                         const Provenance& origin);

}  // namespace planfirst::sources
