#include "sources/db_source.hpp"

#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/timestamp.hpp"
#include "sources/metric_binding.hpp"
#include "sources/metric_evidence.hpp"
#include "sources/metric_selector.hpp"
#include "sources/question_mentions.hpp"

namespace planfirst::sources {
namespace {

using std::chrono::days;
using std::chrono::sys_days;

core::Error cancelled() {
  return core::unavailable("the db fetch was cancelled");
}

// The whole days a plan's time range covers: [floor(since), ceil(until)).
DayRange days_of(const TimeRange& range) {
  const sys_days start = std::chrono::floor<days>(range.since);
  return DayRange{start, std::max(start + days(1), std::chrono::ceil<days>(range.until))};
}

}  // namespace

DbSource::DbSource(ConstructionKey, std::unique_ptr<StatusDatabase> database, MetricCatalog catalog,
                   StatusDirectory directory, const core::Clock& clock)
    : database_(std::move(database)),
      catalog_(std::move(catalog)),
      directory_(std::move(directory)),
      clock_(clock) {}

core::Result<std::unique_ptr<DbSource>> DbSource::create(std::unique_ptr<StatusDatabase> database,
                                                         MetricCatalog catalog, const core::Clock& clock) {
  core::Result<StatusDirectory> directory = StatusDirectory::load(*database);
  if (!directory) return directory.error();
  return std::make_unique<DbSource>(ConstructionKey{}, std::move(database), std::move(catalog),
                                    std::move(*directory), clock);
}

core::Result<std::unique_ptr<DbSource>> DbSource::open(std::string_view location,
                                                       const core::AssetStore& assets,
                                                       const core::Clock& clock,
                                                       const StatusDatabaseOptions& options) {
  core::Result<MetricCatalog> catalog = MetricCatalog::load(assets);
  if (!catalog) return catalog.error();
  core::Result<std::unique_ptr<StatusDatabase>> database = StatusDatabase::open(location, options);
  if (!database) return database.error();
  return create(std::move(*database), std::move(*catalog), clock);
}

std::string DbSource::name() const {
  return "db";
}

core::Result<std::vector<EvidenceItem>> DbSource::fetch(const SourceQuery& query,
                                                        const core::CancellationToken* cancel) const {
  if (cancel != nullptr && cancel->cancelled()) return cancelled();
  const auto now = clock_.now();
  const sys_days today = query.reference_day.value_or(std::chrono::floor<days>(now));
  core::Result<QuestionMentions> mentions = read_mentions(query.text, directory_, today);
  if (!mentions) return mentions.error();
  if (!mentions->period && query.time) mentions->period = days_of(*query.time);
  core::Result<const MetricEntry*> entry = choose_metric(catalog_, query.text, query.kind, *mentions);
  if (!entry) return entry.error();
  core::Result<MetricBinding> binding = bind_metric(**entry, *mentions, directory_, query.limit);
  if (!binding) return binding.error();

  std::vector<EvidenceItem> items;
  const std::string fetched_at = core::format_utc_timestamp(now);
  const std::string database = std::string(database_->engine()) + ":" + database_->location();
  for (const MetricQuery& statement : (*entry)->queries) {
    if (cancel != nullptr && cancel->cancelled()) return cancelled();
    const std::string& sql = statement.sql_for(database_->engine());
    core::Result<data::QueryResult> rows = database_->query(sql, binding->values_for(statement));
    if (!rows) {
      core::Error error = rows.error();
      error.message = "db metric " + (*entry)->name + "/" + statement.id + ": " + error.message;
      return error;
    }
    const MetricRun run{**entry, statement, *binding, sql, catalog_.origin(), database, fetched_at};
    for (EvidenceItem& item : metric_evidence(run, *rows)) {
      if (items.size() >= query.limit) break;
      items.push_back(std::move(item));
    }
  }
  return items;
}

}  // namespace planfirst::sources
