// The sources `planfirst retrieve` fetches from, made from its --gitlab and --youtrack flags, and
// how to configure one that is missing. The one place that knows the connector classes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "pipelines/retrieval/plan_executor.hpp"

namespace planfirst::cli {

struct SourceFlags {
  std::string gitlab_url;                      // --gitlab URL; empty: not configured
  std::vector<std::string> gitlab_projects;    // --gitlab-project, for questions naming no project
  std::string youtrack_url;                    // --youtrack URL; empty: not configured
  std::vector<std::string> youtrack_projects;  // --youtrack-project
};

// The sources the flags name; an error when a named connector cannot be made.
core::Result<retrieval::SourceMap> make_retrieval_sources(const SourceFlags& flags);

// "pass --gitlab URL", ... for a source plans name but no flag configured.
std::string how_to_configure(std::string_view source);

}  // namespace planfirst::cli
