// ProjectSettings are what a project folder says about itself in its planfirst.toml: the day its data
// describes (`[project] as_of = 2026-11-25`), which relative periods then count back from. A folder
// without the file has no settings; the file's errors name the file, the line and the key.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>

#include "core/result.hpp"

namespace planfirst::sources {

inline constexpr const char* kProjectSettingsFile = "planfirst.toml";

struct ProjectSettings {
  std::filesystem::path file;                  // empty when the folder has none
  std::optional<std::chrono::sys_days> as_of;  // [project] as_of
};

// kInvalidArgument for a file that is not TOML, a key other than [project] as_of, or an as_of that is
// not a day (a TOML date or "YYYY-MM-DD"); kNotFound when the file exists but cannot be read.
core::Result<ProjectSettings> load_project_settings(const std::filesystem::path& project_dir);

}  // namespace planfirst::sources
