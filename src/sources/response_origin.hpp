// ResponseOrigin is where one response body came from: the URL (for error messages), the request path
// (the provenance locator), the query text asked and when it was fetched. A value; copy freely.
#pragma once

#include <string>

#include "sources/evidence_item.hpp"

namespace planfirst::sources {

struct ResponseOrigin {
  std::string url;         // "https://gitlab.example.com/api/v4/projects/group%2Fapp/issues?page=2"
  std::string locator;     // the request path with its query string, as sent
  std::string query;       // SourceQuery::text
  std::string fetched_at;  // ISO-8601 UTC

  Provenance provenance(std::string source) const { return {std::move(source), locator, query, fetched_at}; }
};

}  // namespace planfirst::sources
