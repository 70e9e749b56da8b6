// resolve_under maps a relative path from a URL (a web page file, an artifact name) to a file inside
// `root`, refusing anything that leads out of it: "..", absolute paths, NUL bytes, and symbolic links
// whose target lies outside. content_type_for names a file's media type by its extension.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::server {

// The regular file `relative` names under `root`; kNotFound when it does not exist or is no regular
// file, kInvalidArgument when it leads out of `root`.
core::Result<std::filesystem::path> resolve_under(const std::filesystem::path& root,
                                                  std::string_view relative);

std::string content_type_for(const std::filesystem::path& file);

}  // namespace planfirst::server
