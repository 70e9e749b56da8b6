#include "sources/youtrack_source.hpp"

#include <algorithm>
#include <charconv>

#include "core/sleeper.hpp"
#include "core/url_query.hpp"
#include "sources/field_counts.hpp"
#include "sources/youtrack_query.hpp"
#include "sources/youtrack_response.hpp"

namespace planfirst::sources {
namespace {

constexpr std::string_view kApiPrefix = "/api";

// Whether an issue created at `created_ms` lies in the query's time range (YouTrack's range is whole days).
bool in_time_range(const EvidenceItem& item, const SourceQuery& query) {
  if (!query.time) return true;
  const std::string text = field_value(item, "created_ms");
  std::int64_t millis = 0;
  std::from_chars(text.data(), text.data() + text.size(), millis);
  const auto created = std::chrono::system_clock::time_point(std::chrono::milliseconds(millis));
  return created >= query.time->since && created < query.time->until;
}

// Issues counted per project and state, sorted by them.
std::vector<EvidenceItem> state_metrics(const std::vector<EvidenceItem>& issues,
                                        const ResponseOrigin& origin) {
  std::vector<EvidenceItem> metrics;
  for (const FieldCount& group : count_by_fields(issues, {"project", "state"})) {
    const std::string& project = group.values[0];
    const std::string state = group.values[1].empty() ? "(no state)" : group.values[1];
    EvidenceItem item;
    item.source = std::string(kYouTrackSourceName);
    item.id = "youtrack:" + project + "~state/" + state;
    item.title = std::to_string(group.count) + (group.count == 1 ? " issue" : " issues") + " in state " +
                 state + " in " + project;
    item.snippet = item.title;
    item.fields = {{"project", project},
                   {"metric", "issues_by_state"},
                   {"state", state},
                   {"count", std::to_string(group.count)}};
    item.provenance = origin.provenance(item.source);
    metrics.push_back(std::move(item));
  }
  return metrics;
}

std::string issues_path(const std::string& youtrack_query, std::size_t top, std::size_t skip) {
  return "/issues" + core::query_string({{"query", youtrack_query},
                                         {"fields", std::string(kYouTrackIssueFields)},
                                         {"$top", std::to_string(top)},
                                         {"$skip", std::to_string(skip)}});
}

}  // namespace

core::Result<std::unique_ptr<YouTrackSource>> YouTrackSource::create(YouTrackOptions options,
                                                                     const core::Clock& clock) {
  return create(std::move(options), clock, core::thread_sleeper(), core::process_environment());
}

core::Result<std::unique_ptr<YouTrackSource>> YouTrackSource::create(YouTrackOptions options,
                                                                     const core::Clock& clock,
                                                                     core::Sleeper& sleeper,
                                                                     const core::Environment& env) {
  if (options.page_size == 0)
    return core::invalid_argument("YouTrack page size must be at least 1", "page_size");
  RestSettings settings{
      options.base_url, "YouTrackOptions::base_url",
      kApiPrefix,       TokenSource{"YouTrack", "YouTrackOptions::token_env", options.token_env},
      "Authorization",  "Bearer ",
      options.http};
  core::Result<RestConnection> connection = RestConnection::create(std::move(settings), clock, sleeper, env);
  if (!connection) return connection.error();
  return std::make_unique<YouTrackSource>(ConstructionKey{}, std::move(options), std::move(*connection));
}

YouTrackSource::YouTrackSource(ConstructionKey, YouTrackOptions options, RestConnection connection)
    : options_(std::move(options)), connection_(std::move(connection)) {}

std::string YouTrackSource::name() const {
  return std::string(kYouTrackSourceName);
}

core::Result<std::vector<EvidenceItem>> YouTrackSource::fetch(const SourceQuery& query,
                                                              const core::CancellationToken* cancel) const {
  const bool metrics = query.kind == "metrics";
  if (query.kind != "issues" && !metrics) {
    return core::invalid_argument("YouTrack has no kind \"" + query.kind + "\" (known: issues, metrics)",
                                  "kind");
  }
  const std::vector<std::string>& projects =
      query.projects.empty() ? options_.default_projects : query.projects;
  core::Result<std::string> text = youtrack_query(query, projects, options_.state_field);
  if (!text) return text.error();
  if (!metrics) return list_issues(query, *text, query.limit, cancel);

  core::Result<std::vector<EvidenceItem>> issues =
      list_issues(query, *text, options_.metrics_scan_limit, cancel);
  if (!issues) return issues.error();
  std::vector<EvidenceItem> counts = state_metrics(
      *issues, connection_.origin("/issues" + core::query_string({{"query", *text}}), query.text));
  if (counts.size() > query.limit) counts.resize(query.limit);
  return counts;
}

core::Result<std::vector<EvidenceItem>> YouTrackSource::list_issues(
    const SourceQuery& query, const std::string& youtrack_query, std::size_t max_items,
    const core::CancellationToken* cancel) const {
  std::vector<EvidenceItem> items;
  std::size_t skip = 0;
  while (items.size() < max_items) {
    const std::size_t top = std::min(options_.page_size, max_items - items.size());
    const std::string path = issues_path(youtrack_query, top, skip);
    core::Result<core::HttpResponse> response = connection_.get(path, "issues for this query", cancel);
    if (!response) return response.error();
    core::Result<std::vector<EvidenceItem>> page = parse_youtrack_issues(
        response->body, connection_.root_url(), connection_.origin(path, query.text), options_.state_field);
    if (!page) return page.error();
    for (EvidenceItem& item : *page) {
      if (items.size() < max_items && in_time_range(item, query)) items.push_back(std::move(item));
    }
    if (page->size() < top) break;  // the last page
    skip += page->size();
  }
  return items;
}

}  // namespace planfirst::sources
