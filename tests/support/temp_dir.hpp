// TempDir is a fresh directory under the system temporary folder for a test's fixture files;
// destruction removes it with everything inside. Standard library and POSIX only (every test
// program compiles tests/support/).
#pragma once

#include <filesystem>
#include <string_view>

namespace planfirst::test_support {

class TempDir {
 public:
  // Throws std::runtime_error when no directory can be created (the test then fails with it).
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes `contents` to `name` inside the directory and returns the file's path.
  std::filesystem::path write(std::string_view name, std::string_view contents) const;

 private:
  std::filesystem::path path_;
};

}  // namespace planfirst::test_support
