// answer_graph_question is the fetch of both neo4j backends: read the known entities, match the
// question to the registry, run its statement with the entity's id, and turn the rows into evidence.
// The backend is a GraphRunner (SQL over the status database, or Cypher over Neo4j's HTTP API).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "sources/evidence_item.hpp"
#include "sources/graph_evidence.hpp"
#include "sources/graph_questions.hpp"
#include "sources/source_query.hpp"

namespace planfirst::sources {

enum class GraphLanguage { kSql, kCypher };

// Runs `statement` in the backend's language; `entity_id` is null for a statement without parameter.
using GraphRunner =
    std::function<core::Result<GraphRows>(std::string_view statement, const std::string* entity_id)>;

struct GraphAnswerContext {
  std::string source;      // "neo4j"
  std::string locator;     // where the statements ran: "duckdb status database", "http://host:7474/db/neo4j"
  std::string fetched_at;  // ISO-8601 UTC
};

// Items for `query.text`, at most `query.limit`. kInvalidArgument when no registry question matches
// (the message lists what the source can answer); the runner's errors as they come.
core::Result<std::vector<EvidenceItem>> answer_graph_question(const GraphQuestions& questions,
                                                              const SourceQuery& query,
                                                              GraphLanguage language, const GraphRunner& run,
                                                              const GraphAnswerContext& context);

}  // namespace planfirst::sources
