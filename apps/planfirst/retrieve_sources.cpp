// The GitLab and YouTrack connectors `planfirst retrieve` fetches from, each made only when its URL
// flag is given; tokens come from the environment variables the connectors name.
#include "planfirst/retrieve_sources.hpp"

#include <memory>
#include <utility>

#include "core/clock.hpp"
#include "sources/gitlab_source.hpp"
#include "sources/youtrack_source.hpp"

namespace planfirst::cli {
namespace {

// The flag's name in `where` when the connector refuses its options ("--gitlab").
core::Error from_flag(core::Error error, std::string_view flag) {
  if (error.where.empty()) error.where = std::string(flag);
  return error;
}

}  // namespace

core::Result<retrieval::SourceMap> make_retrieval_sources(const SourceFlags& flags) {
  retrieval::SourceMap sources;
  if (!flags.gitlab_url.empty()) {
    sources::GitLabOptions options;
    options.base_url = flags.gitlab_url;
    options.default_projects = flags.gitlab_projects;
    options.default_projects_hint = "pass --gitlab-project group/app";
    auto gitlab = sources::GitLabSource::create(std::move(options), core::system_clock());
    if (!gitlab) return from_flag(std::move(gitlab).error(), "--gitlab");
    sources.emplace("gitlab", std::move(*gitlab));
  }
  if (!flags.youtrack_url.empty()) {
    sources::YouTrackOptions options;
    options.base_url = flags.youtrack_url;
    options.default_projects = flags.youtrack_projects;
    auto youtrack = sources::YouTrackSource::create(std::move(options), core::system_clock());
    if (!youtrack) return from_flag(std::move(youtrack).error(), "--youtrack");
    sources.emplace("youtrack", std::move(*youtrack));
  }
  return sources;
}

std::string how_to_configure(std::string_view source) {
  if (source == "gitlab") {
    return "pass --gitlab URL (a GitLab server; token in $" + sources::GitLabOptions{}.token_env +
           "; --gitlab-project for questions naming none)";
  }
  if (source == "youtrack") {
    return "pass --youtrack URL (a YouTrack server; token in $" + sources::YouTrackOptions{}.token_env +
           "; --youtrack-project to search one project when a question names none)";
  }
  return "no " + std::string(source) + " source is available yet";
}

}  // namespace planfirst::cli
