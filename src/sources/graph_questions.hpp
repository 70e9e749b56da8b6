// GraphQuestions is the registry of questions the neo4j source answers about a project's graph
// (assets/sources/graph_questions.yaml): for each, the word patterns that recognize it, the entity
// it is about (component, person, issue or none), recursive SQL for the status database and
// parameterized Cypher for Neo4j returning the same columns. match() picks the first question whose
// pattern appears in a user's question (filler words such as "the" ignored on both sides).
// Immutable after load(); threads may share one.
#pragma once

#include <map>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace planfirst::core {
class AssetStore;
class RegistryYaml;
}  // namespace planfirst::core

namespace planfirst::sources {

struct GraphQuestion {
  std::string id;                                  // "component_dependents"
  std::string description;                         // what it answers, for messages and READMEs
  std::string entity;                              // "component", "person", "issue", or "" (none)
  std::vector<std::vector<std::string>> patterns;  // words; "{component}" stands for the entity
  std::vector<std::string> key_columns;            // the columns naming one answer row, for item ids
  std::string title;                               // per row: "{component} depends on {entity}"
  std::string sql;                                 // $1 = the entity's id
  std::string cypher;                              // $id = the entity's id
};

struct GraphEntityQuery {
  std::string type;  // "component", "person"
  std::string sql;   // rows of (id, name)
  std::string cypher;
};

// The known entities by type: (id, name) pairs, as the entity queries return them.
using GraphEntities = std::map<std::string, std::vector<std::pair<std::string, std::string>>, std::less<>>;

struct GraphMatch {
  const GraphQuestion* question = nullptr;  // points into the registry
  std::string entity_id;                    // "" for a question without an entity
};

class GraphQuestions {
 public:
  // kNotFound when the asset is missing; kInvalidArgument naming the file, line and field otherwise.
  static core::Result<GraphQuestions> load(const core::AssetStore& assets);

  const std::vector<GraphQuestion>& questions() const { return questions_; }
  const std::vector<GraphEntityQuery>& entity_queries() const { return entity_queries_; }
  const GraphQuestion* find(std::string_view id) const;  // nullptr when unknown

  // The first question (in file order) one of whose patterns appears in `question`, with the entity
  // it names; nullopt when none does. Entities are recognized by id or name among `entities`, and
  // issue keys by their shape.
  std::optional<GraphMatch> match(std::string_view question, const GraphEntities& entities) const;

  // "component_dependents (what depends on a component ...); ...": what the registry can answer.
  std::string describe() const;

 private:
  static core::Result<GraphQuestions> read(const core::RegistryYaml& yaml);

  std::vector<GraphQuestion> questions_;
  std::vector<GraphEntityQuery> entity_queries_;
  std::regex issue_key_{"$^"};  // the entities' key_pattern, compiled once; matches nothing when unset
  std::vector<std::string> filler_words_;  // sorted
};

// The words of `text` as match() sees them: lower-cased, split at whitespace and punctuation, '-',
// '.' and '_' kept inside a word ("billing-engine", "maya.chen", "orb-42") but not at its ends.
std::vector<std::string> graph_question_words(std::string_view text);

}  // namespace planfirst::sources
