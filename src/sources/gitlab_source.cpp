#include "sources/gitlab_source.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include "core/ascii_case.hpp"
#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/join.hpp"
#include "core/sleeper.hpp"
#include "core/timestamp.hpp"
#include "core/url_query.hpp"
#include "sources/field_counts.hpp"
#include "sources/gitlab_response.hpp"

namespace planfirst::sources {
namespace {

using Parser = core::Result<std::vector<EvidenceItem>> (*)(std::string_view, std::string_view,
                                                           const ResponseOrigin&);

// One endpoint of one project, read page by page.
struct Listing {
  std::string project;         // as the query or the options name it: "group/app" or "42"
  std::string endpoint;        // "repository/commits", "issues", "merge_requests"
  core::QueryParams filters;   // since/until, created_after/before, state
  std::set<std::string> keep;  // states to keep when GitLab cannot filter them in one request; empty: all
  std::size_t max_items = 0;
  Parser parse = nullptr;

  std::string path(const core::QueryParams& params) const {  // below /api/v4
    return "/projects/" + core::percent_encode(project) + "/" + endpoint + core::query_string(params);
  }
};

constexpr std::string_view kApiPrefix = "/api/v4";

// GitLab's state for a normalized status; "" when GitLab has none for it.
std::string gitlab_state(std::string_view status, bool merge_requests) {
  const std::string word = core::ascii_lower(status);
  for (const char* open :
       {"open", "opened", "in-progress", "in_progress", "in progress", "unresolved", "reopened", "todo"}) {
    if (word == open) return "opened";
  }
  for (const char* closed : {"closed", "done", "resolved", "fixed", "completed"}) {
    if (word == closed) return "closed";
  }
  if (merge_requests && (word == "merged" || word == "locked")) return word;
  return "";
}

// The `state` parameter for `statuses` and the states to keep on our side when one parameter cannot say it.
core::Result<void> add_state_filter(const std::vector<std::string>& statuses, bool merge_requests,
                                    Listing& listing) {
  std::set<std::string> states;
  for (const std::string& status : statuses) {
    const std::string state = gitlab_state(status, merge_requests);
    if (state.empty()) {
      return core::invalid_argument(
          "GitLab has no state for the status \"" + status + "\" (known: open, in-progress, " +
              "unresolved, closed, done, resolved, fixed" + (merge_requests ? ", merged, locked)" : ")"),
          "statuses");
    }
    states.insert(state);
  }
  if (states.size() == 1) {
    listing.filters.emplace_back("state", *states.begin());
  } else if (states.size() > 1) {
    listing.filters.emplace_back("state", "all");
    listing.keep = std::move(states);
  }
  return core::ok();
}

// Where the next page is: X-Next-Page ("" on the last page), else a Link header's rel="next", else a
// full page suggests one more. nullopt: this was the last page.
core::Result<std::optional<int>> next_page(const core::HttpResponse& response, int page, std::size_t received,
                                           std::size_t per_page, std::string_view url) {
  std::string number;
  if (std::optional<std::string> header = response.header("X-Next-Page")) {
    number = *header;
    number.erase(std::remove(number.begin(), number.end(), ' '), number.end());
    if (number.empty()) return std::optional<int>();
  } else if (std::optional<std::string> link = response.header("Link")) {
    const std::size_t rel = link->find("rel=\"next\"");
    if (rel == std::string::npos) return std::optional<int>();
    const std::size_t open = link->rfind('<', rel), close = link->rfind('>', rel);
    const std::string target = open == std::string::npos || close == std::string::npos || close < open
                                   ? std::string()
                                   : link->substr(open + 1, close - open - 1);
    std::size_t at = target.find("?page=");
    if (at == std::string::npos) at = target.find("&page=");
    if (at == std::string::npos) {
      return core::invalid_argument(
          "the Link header from " + std::string(url) + " has a next link without a page", "Link");
    }
    const std::size_t amp = target.find('&', at + 6);
    number = target.substr(at + 6, amp == std::string::npos ? std::string::npos : amp - at - 6);
  } else {
    return received >= per_page ? std::optional<int>(page + 1) : std::optional<int>();
  }
  int next = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), next);
  if (error != std::errc() || end != number.data() + number.size()) {
    return core::invalid_argument(
        "the next page \"" + number + "\" named by " + std::string(url) + " is not a number", "X-Next-Page");
  }
  return next > page ? std::optional<int>(next) : std::optional<int>();  // never back: no endless loop
}

// Reads pages until `listing.max_items` items or the last page.
core::Result<std::vector<EvidenceItem>> list_pages(const RestConnection& connection, const Listing& listing,
                                                   std::size_t page_size, std::string_view query_text,
                                                   const core::CancellationToken* cancel) {
  std::vector<EvidenceItem> items;
  // A short last page only when GitLab filters everything; keeping states ourselves reads full pages.
  const std::size_t per_page =
      listing.keep.empty() ? std::clamp<std::size_t>(listing.max_items, 1, page_size) : page_size;
  int page = 1;
  while (items.size() < listing.max_items) {
    core::QueryParams params = listing.filters;
    params.emplace_back("per_page", std::to_string(per_page));
    params.emplace_back("page", std::to_string(page));
    const std::string path = listing.path(params);
    core::Result<core::HttpResponse> response = connection.get(path, "project " + listing.project, cancel);
    if (!response) return response.error();

    const ResponseOrigin origin = connection.origin(path, query_text);
    core::Result<std::vector<EvidenceItem>> page_items =
        listing.parse(response->body, listing.project, origin);
    if (!page_items) return page_items.error();
    for (EvidenceItem& item : *page_items) {
      if (items.size() >= listing.max_items) break;
      if (!listing.keep.empty() && listing.keep.count(field_value(item, "state")) == 0) continue;
      items.push_back(std::move(item));
    }
    if (page_items->empty()) break;
    core::Result<std::optional<int>> next =
        next_page(*response, page, page_items->size(), per_page, origin.url);
    if (!next) return next.error();
    if (!*next) break;
    page = **next;
  }
  return items;
}

// The person parameters of each request: GitLab takes one user name per parameter, so several
// assignees or authors are asked one after another (each assignee with each author). One empty set
// when the query names nobody.
std::vector<core::QueryParams> person_filters(const SourceQuery& query, bool commits) {
  std::vector<core::QueryParams> sets(1);
  auto spread = [&](const std::vector<std::string>& names, const std::string& param) {
    if (names.empty()) return;
    std::vector<core::QueryParams> spread_sets;
    for (const core::QueryParams& set : sets) {
      for (const std::string& name : names) {
        spread_sets.push_back(set);
        spread_sets.back().emplace_back(param, name);
      }
    }
    sets = std::move(spread_sets);
  };
  spread(query.assignees, "assignee_username");
  spread(query.authors, commits ? "author" : "author_username");
  return sets;
}

// Commits counted per project, UTC day and author, sorted by them.
std::vector<EvidenceItem> commit_metrics(const std::vector<EvidenceItem>& commits,
                                         const ResponseOrigin& origin) {
  std::vector<EvidenceItem> metrics;
  for (const FieldCount& group : count_by_fields(commits, {"project", "day", "author"})) {
    const std::string& project = group.values[0];
    const std::string& day = group.values[1];
    const std::string& author = group.values[2];
    EvidenceItem item;
    item.source = std::string(kGitLabSourceName);
    item.id = "gitlab:" + project + "~commits/" + day + "/" + author;
    item.title = std::to_string(group.count) + (group.count == 1 ? " commit" : " commits") + " by " + author +
                 " on " + day + " in " + project;
    item.snippet = item.title;
    item.fields = {{"project", project},
                   {"metric", "commits_per_author_day"},
                   {"day", day},
                   {"author", author},
                   {"count", std::to_string(group.count)}};
    item.provenance = origin.provenance(item.source);
    metrics.push_back(std::move(item));
  }
  return metrics;
}

}  // namespace

core::Result<std::unique_ptr<GitLabSource>> GitLabSource::create(GitLabOptions options,
                                                                 const core::Clock& clock) {
  return create(std::move(options), clock, core::thread_sleeper(), core::process_environment());
}

core::Result<std::unique_ptr<GitLabSource>> GitLabSource::create(GitLabOptions options,
                                                                 const core::Clock& clock,
                                                                 core::Sleeper& sleeper,
                                                                 const core::Environment& env) {
  if (options.page_size == 0)
    return core::invalid_argument("GitLab page size must be at least 1", "page_size");
  RestSettings settings{
      options.base_url, "GitLabOptions::base_url",
      kApiPrefix,       TokenSource{"GitLab", "GitLabOptions::token_env", options.token_env},
      "PRIVATE-TOKEN",  "",
      options.http};
  core::Result<RestConnection> connection = RestConnection::create(std::move(settings), clock, sleeper, env);
  if (!connection) return connection.error();
  return std::make_unique<GitLabSource>(ConstructionKey{}, std::move(options), std::move(*connection));
}

GitLabSource::GitLabSource(ConstructionKey, GitLabOptions options, RestConnection connection)
    : options_(std::move(options)), connection_(std::move(connection)) {}

std::string GitLabSource::name() const {
  return std::string(kGitLabSourceName);
}

core::Result<std::vector<EvidenceItem>> GitLabSource::fetch(const SourceQuery& query,
                                                            const core::CancellationToken* cancel) const {
  const bool metrics = query.kind == "metrics";
  Listing shape;
  if (query.kind == "commits" || metrics) {
    shape.endpoint = "repository/commits";
    shape.parse = parse_gitlab_commits;
  } else if (query.kind == "issues") {
    shape.endpoint = "issues";
    shape.parse = parse_gitlab_issues;
  } else if (query.kind == "merge_requests") {
    shape.endpoint = "merge_requests";
    shape.parse = parse_gitlab_merge_requests;
  } else {
    return core::invalid_argument(
        "GitLab has no kind \"" + query.kind + "\" (known: commits, issues, merge_requests, metrics)",
        "kind");
  }
  const bool commits = shape.endpoint == "repository/commits";
  if (commits && !query.assignees.empty()) {
    return core::invalid_argument("GitLab commits have no assignee (asked for " +
                                      core::join(query.assignees) + "); ask for issues or merge requests",
                                  "assignees");
  }
  const std::vector<std::string>& projects =
      query.projects.empty() ? options_.default_projects : query.projects;
  if (projects.empty()) {
    return core::invalid_argument(
        "the GitLab query names no project: name one in the question (\"in project group/app\") or " +
            options_.default_projects_hint,
        "projects");
  }
  if (query.time) {
    if (query.time->until <= query.time->since) {
      return core::invalid_argument("the time range ends before it starts (since " +
                                        core::format_utc_timestamp(query.time->since) + ", until " +
                                        core::format_utc_timestamp(query.time->until) + ")",
                                    "time");
    }
    // GitLab's upper bounds are inclusive; ours is exclusive.
    const std::string since = core::format_utc_timestamp(query.time->since);
    const std::string until = core::format_utc_timestamp(query.time->until - std::chrono::seconds(1));
    if (commits) {
      shape.filters = {{"since", since}, {"until", until}};
    } else {
      shape.filters = {{"created_after", since}, {"created_before", until}};
    }
  }
  if (!metrics && !commits) {
    if (auto added = add_state_filter(query.statuses, shape.endpoint == "merge_requests", shape); !added) {
      return added.error();
    }
  }

  const std::vector<core::QueryParams> people = person_filters(query, commits);
  auto listing_for = [&](const std::string& project, const core::QueryParams& person) {
    Listing listing = shape;
    listing.project = project;
    listing.filters.insert(listing.filters.end(), person.begin(), person.end());
    return listing;
  };
  std::vector<EvidenceItem> items;
  for (const std::string& project : projects) {
    if (items.size() >= query.limit) break;
    const std::size_t wanted = metrics ? options_.metrics_scan_limit : query.limit - items.size();
    std::vector<EvidenceItem> read;  // this project's items, each once (an issue may have two assignees)
    std::set<std::string> seen;
    for (const core::QueryParams& person : people) {
      if (read.size() >= wanted) break;
      Listing listing = listing_for(project, person);
      listing.max_items = wanted - read.size();
      core::Result<std::vector<EvidenceItem>> listed =
          list_pages(connection_, listing, options_.page_size, query.text, cancel);
      if (!listed) return listed.error();
      for (EvidenceItem& item : *listed) {
        if (seen.insert(item.id).second) read.push_back(std::move(item));
      }
    }
    if (metrics) {
      const Listing first = listing_for(project, people.front());
      read = commit_metrics(read, connection_.origin(first.path(first.filters), query.text));
    }
    for (EvidenceItem& item : read) {
      if (items.size() >= query.limit) break;
      items.push_back(std::move(item));
    }
  }
  return items;
}

}  // namespace planfirst::sources
