// SourceMap is the set of retrievers a run may call, by the name plans use ("gitlab", "db", "doc").
// Sources are co-owned by whoever configured them and every services object that runs plans with them.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "sources/retrieval_source.hpp"

namespace planfirst::sources {

using SourceMap = std::map<std::string, std::shared_ptr<const RetrievalSource>, std::less<>>;

}  // namespace planfirst::sources
