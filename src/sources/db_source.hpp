// DbSource answers plans that name "db" from the project's status database: it picks the metric
// catalog entry the question asks for (metric_selector.hpp), reads its parameters from the question
// (question_mentions.hpp, matched against the database's own people, components and sprints), binds
// them (metric_binding.hpp) and runs the entry's SQL read-only (status_database.hpp). Immutable
// after create(); threads may share one (queries take turns on its one connection). Borrows the
// Clock: it outlives the source.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "sources/metric_catalog.hpp"
#include "sources/retrieval_source.hpp"
#include "sources/status_database.hpp"
#include "sources/status_directory.hpp"

namespace planfirst::core {
class Clock;
}

namespace planfirst::sources {

class DbSource final : public RetrievalSource {
 public:
  // Reads people, components and sprints once; errors as StatusDatabase::query (kNotFound when the
  // database lacks the status tables).
  static core::Result<std::unique_ptr<DbSource>> create(std::unique_ptr<StatusDatabase> database,
                                                        MetricCatalog catalog, const core::Clock& clock);
  // StatusDatabase::open(location) (a project folder, its status folder, a .duckdb file or a
  // postgresql:// URI) with the catalog of `assets`.
  static core::Result<std::unique_ptr<DbSource>> open(std::string_view location,
                                                      const core::AssetStore& assets,
                                                      const core::Clock& clock,
                                                      const StatusDatabaseOptions& options = {});

  std::string name() const override;  // "db"
  // query.text is the question; query.kind "metric", "summary", "list", a catalog entry's name, or
  // empty; query.time, when set, is the period of entries that take one and whose question names
  // none; query.limit caps list rows and items. The reference day is the question's "as of
  // YYYY-MM-DD", else query.reference_day, else the clock's UTC day. Errors: kNotFound when no entry matches
  // (listing the catalog's names) or a default sprint does not exist; kInvalidArgument for an unknown kind,
  // an unknown sprint number or a missing required person/component; kUnavailable for a lost connection, a
  // statement timeout or cancellation.
  core::Result<std::vector<EvidenceItem>> fetch(const SourceQuery& query,
                                                const core::CancellationToken* cancel) const override;

  const MetricCatalog& catalog() const { return catalog_; }
  const StatusDatabase& database() const { return *database_; }
  const StatusDirectory& directory() const { return directory_; }

 private:
  struct ConstructionKey {};

 public:
  DbSource(ConstructionKey, std::unique_ptr<StatusDatabase> database, MetricCatalog catalog,
           StatusDirectory directory, const core::Clock& clock);

 private:
  std::unique_ptr<StatusDatabase> database_;
  MetricCatalog catalog_;
  StatusDirectory directory_;
  const core::Clock& clock_;
};

}  // namespace planfirst::sources
