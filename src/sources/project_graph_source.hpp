// ProjectGraphSource is the built-in "neo4j" source: the project graph (people, components and their
// dependencies, ownership, issues and their links) kept in the status database's tables and walked
// with recursive SQL (WITH RECURSIVE), for the questions of assets/sources/graph_questions.yaml.
// Borrows the Database (one connection, used under a mutex, so threads may share the source; give it
// a connection of its own, not the db source's) and the Clock: both outlive it.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sources/graph_questions.hpp"
#include "sources/retrieval_source.hpp"

namespace planfirst::core {
class AssetStore;
class Clock;
}  // namespace planfirst::core

namespace planfirst::data {
class Database;
}

namespace planfirst::sources {

class ProjectGraphSource final : public RetrievalSource {
 public:
  // Loads the question registry; GraphQuestions::load's errors.
  static core::Result<std::unique_ptr<ProjectGraphSource>> create(data::Database& database,
                                                                  const core::AssetStore& assets,
                                                                  const core::Clock& clock);

  std::string name() const override { return "neo4j"; }
  // One item per answer row (see graph_evidence.hpp). kInvalidArgument when no registry question
  // matches SourceQuery::text; the database's errors (kNotFound for a missing table) otherwise;
  // kUnavailable when cancelled.
  core::Result<std::vector<EvidenceItem>> fetch(const SourceQuery& query,
                                                const core::CancellationToken* cancel) const override;

 private:
  struct ConstructionKey {};  // create() is the only way in

 public:
  ProjectGraphSource(ConstructionKey, data::Database& database, GraphQuestions questions,
                     const core::Clock& clock);

 private:
  mutable std::mutex mutex_;  // serializes use of database_
  data::Database* database_;  // borrowed; never null; guarded by mutex_
  GraphQuestions questions_;
  const core::Clock* clock_;  // borrowed; never null
};

}  // namespace planfirst::sources
