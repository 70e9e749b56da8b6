// EvidenceItem is one thing a source returned for a plan: a commit, an issue, a document section,
// metric rows. Every item names its source and carries provenance (what was asked, where, when).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace planfirst::sources {

struct Provenance {
  std::string source;      // "gitlab", "youtrack", "db", "doc", "policy", "neo4j"
  std::string locator;     // where it came from: a URL path, file#heading, table, Cypher statement
  std::string query;       // what was asked: query string, SQL, search terms
  std::string fetched_at;  // ISO-8601 UTC, from the injected clock
};

struct EvidenceItem {
  std::string source;  // as Provenance::source
  std::string id;      // stable within the source: "gitlab:group/app!12", "docs/design.md#Storage"
  std::string title;
  std::string snippet;  // text a reader or model can quote; may be empty when `rows` carry the data
  std::vector<std::pair<std::string, std::string>> fields;  // structured attributes (author, state, date)
  std::optional<double> score;                              // relevance, when the source ranks
  Provenance provenance;
};

}  // namespace planfirst::sources
