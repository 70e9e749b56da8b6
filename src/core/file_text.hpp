// read_file_text returns the whole content of a file, byte for byte. kNotFound when it does not
// exist, kInvalidArgument when it is a directory or cannot be read; `where` names the path.
// write_file_atomically replaces a file whole: readers see the old bytes or the new, never part.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::core {

Result<std::string> read_file_text(const std::filesystem::path& path);

// Writes a temporary file beside `path`, then renames it over `path`; the folder must exist.
// kUnavailable naming the path when either fails (the temporary file is removed).
Result<void> write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace planfirst::core
