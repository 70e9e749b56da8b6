// FileStamp tells a file as it is now from the same file changed: its absolute path, size and
// modification time. Caches of what was read from a dataset file key on it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace planfirst::data {

struct FileStamp {
  std::string path;  // absolute
  std::uintmax_t size = 0;
  std::int64_t modified = 0;  // the file clock's ticks

  bool operator==(const FileStamp&) const = default;
};

// The stamp of `file`; none when it is no regular file or cannot be read.
std::optional<FileStamp> stamp_of(const std::filesystem::path& file);

}  // namespace planfirst::data
