#include "core/file_text.hpp"

#include <fstream>
#include <iterator>

namespace planfirst::core {

Result<std::string> read_file_text(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return not_found("no such file", path.string());
  if (std::filesystem::is_directory(path, ec)) return invalid_argument("is a directory, not a file", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalid_argument("cannot open the file", path.string());
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return invalid_argument("cannot read the file", path.string());
  return text;
}

}  // namespace planfirst::core
