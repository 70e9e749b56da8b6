// Until the GitLab and YouTrack connectors are built in, a URL for either is refused with a clear
// error; at integration each branch becomes sources::GitLabSource::create(...) /
// sources::YouTrackSource::create(...).
#include "planfirst/retrieve_sources.hpp"

namespace planfirst::cli {

core::Result<retrieval::SourceMap> make_retrieval_sources(const SourceFlags& flags) {
  retrieval::SourceMap sources;
  if (!flags.gitlab_url.empty()) {
    return core::failed_precondition("GitLab connector not built in: --gitlab cannot be used yet", "--gitlab");
  }
  if (!flags.youtrack_url.empty()) {
    return core::failed_precondition("YouTrack connector not built in: --youtrack cannot be used yet", "--youtrack");
  }
  return sources;
}

std::string how_to_configure(std::string_view source) {
  if (source == "gitlab") return "pass --gitlab URL (a GitLab server, token from the environment)";
  if (source == "youtrack") return "pass --youtrack URL (a YouTrack server, token from the environment)";
  return "no " + std::string(source) + " source is available yet";
}

}  // namespace planfirst::cli
