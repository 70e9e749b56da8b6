// Neo4jSource is the "neo4j" source on a Neo4j server: the questions of
// assets/sources/graph_questions.yaml as parameterized Cypher ($id), sent one statement per request
// to the HTTP transactional endpoint POST <base_url>/db/<database>/tx/commit with basic auth from the
// environment. HTTP, retries and cancellation go through core::HttpClient. Immutable after create();
// threads may share one. Borrows the Clock (and Sleeper): they outlive the source.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/http_client.hpp"
#include "sources/graph_questions.hpp"
#include "sources/retrieval_source.hpp"

namespace planfirst::core {
class AssetStore;
class Clock;
class Sleeper;
}  // namespace planfirst::core

namespace planfirst::sources {

struct Neo4jOptions {
  std::string base_url = "http://localhost:7474";  // the server's HTTP root
  std::string database = "neo4j";                  // the path's {database}
  std::string user_env = "NEO4J_USER";             // variable holding the user; "" = no authentication
  std::string password_env = "NEO4J_PASSWORD";     // variable holding the password
  core::HttpOptions http;                          // timeouts, retries, TLS
};

class Neo4jSource final : public RetrievalSource {
 public:
  // Reads the credentials from the process environment. kFailedPrecondition when the user variable is
  // set but the password variable is not (or the reverse); kInvalidArgument for a malformed base URL
  // or an empty database; GraphQuestions::load's errors.
  static core::Result<std::unique_ptr<Neo4jSource>> create(Neo4jOptions options,
                                                           const core::AssetStore& assets,
                                                           const core::Clock& clock);
  // As above with the environment to read and how to wait between retries (tests: RecordingSleeper).
  static core::Result<std::unique_ptr<Neo4jSource>> create(Neo4jOptions options,
                                                           const core::AssetStore& assets,
                                                           const core::Clock& clock, core::Sleeper& sleeper,
                                                           const core::Environment& env);

  std::string name() const override { return "neo4j"; }
  // One item per answer row, as ProjectGraphSource gives for the same graph. kInvalidArgument when no
  // registry question matches or Neo4j refuses a statement; kFailedPrecondition when it refuses the
  // credentials (HTTP 401 or a Security error); kUnavailable when unreachable, after retries, cancelled.
  core::Result<std::vector<EvidenceItem>> fetch(const SourceQuery& query,
                                                const core::CancellationToken* cancel) const override;

 private:
  struct ConstructionKey {};  // create() is the only way in

 public:
  Neo4jSource(ConstructionKey, Neo4jOptions options, GraphQuestions questions, core::HttpClient http,
              core::HttpHeaders headers, const core::Clock& clock);

 private:
  Neo4jOptions options_;
  GraphQuestions questions_;
  core::HttpClient http_;
  core::HttpHeaders headers_;  // Authorization, when there are credentials
  const core::Clock* clock_;   // borrowed; never null
};

}  // namespace planfirst::sources
