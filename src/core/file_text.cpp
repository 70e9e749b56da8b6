#include "core/file_text.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <random>

namespace planfirst::core {

Result<std::string> read_file_text(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return not_found("no such file", path.string());
  if (std::filesystem::is_directory(path, ec))
    return invalid_argument("is a directory, not a file", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalid_argument("cannot open the file", path.string());
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return invalid_argument("cannot read the file", path.string());
  return text;
}

Result<void> write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  std::random_device random;
  const std::filesystem::path temp = path.string() + fmt::format(".tmp-{:08x}{:08x}", random(), random());
  std::error_code ec;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temp, ec);
      return unavailable("cannot write the file", path.string());
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    return unavailable("cannot move the file into place: " + ec.message(), path.string());
  }
  return ok();
}

}  // namespace planfirst::core
