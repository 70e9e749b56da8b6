// RetrievalSource is one retriever a plan may name (gitlab, youtrack, db, doc, policy, neo4j). fetch()
// answers one query with evidence items or an Error naming the source and what failed; it never throws.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"
#include "sources/evidence_item.hpp"
#include "sources/source_query.hpp"

namespace planfirst::core {
class CancellationToken;
}

namespace planfirst::sources {

class RetrievalSource {
 public:
  virtual ~RetrievalSource() = default;
  virtual std::string name() const = 0;  // the name plans use: "gitlab", "youtrack", ...
  // Thread-safe: independent plans fetch in parallel. `cancel` may be null.
  virtual core::Result<std::vector<EvidenceItem>> fetch(const SourceQuery& query,
                                                        const core::CancellationToken* cancel) const = 0;
};

}  // namespace planfirst::sources
