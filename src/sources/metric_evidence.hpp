// metric_evidence turns the rows one catalog query returned into evidence items: one per row, with
// the row's columns as fields, the entry's unit, the period the values cover, and provenance naming
// the catalog entry (locator) and the SQL with its bound values (query). No rows give one item saying
// so, so an answer can tell "nothing matched" from "not asked". An entry whose headline is a sum or
// a mean gets one more item first: the figure over the rows (field "headline"), with how it was
// computed (field "computed"). Notes on what the figure does not follow are field "note"; a metric's
// catalog description is field "definition". Pure.
#pragma once

#include <string>
#include <vector>

#include "data/query_result.hpp"
#include "sources/evidence_item.hpp"
#include "sources/metric_binding.hpp"
#include "sources/metric_catalog.hpp"

namespace planfirst::sources {

struct MetricRun {
  const MetricEntry& entry;
  const MetricQuery& query;
  const MetricBinding& binding;
  std::string sql;         // as run on this engine
  std::string catalog;     // the catalog's origin, "builtin:sources/metrics.yaml"
  std::string database;    // "duckdb:/path/status.duckdb", "postgresql://user@host/db"
  std::string fetched_at;  // ISO-8601 UTC
};

std::vector<EvidenceItem> metric_evidence(const MetricRun& run, const data::QueryResult& rows);

}  // namespace planfirst::sources
