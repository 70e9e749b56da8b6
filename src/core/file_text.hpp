// read_file_text returns the whole content of a file, byte for byte. kNotFound when it does not
// exist, kInvalidArgument when it is a directory or cannot be read; `where` names the path.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.hpp"

namespace planfirst::core {

Result<std::string> read_file_text(const std::filesystem::path& path);

}  // namespace planfirst::core
