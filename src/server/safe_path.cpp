#include "server/safe_path.hpp"

#include <array>
#include <utility>

namespace planfirst::server {

core::Result<std::filesystem::path> resolve_under(const std::filesystem::path& root,
                                                  std::string_view relative) {
  namespace fs = std::filesystem;
  if (relative.find('\0') != std::string_view::npos || relative.find('\\') != std::string_view::npos)
    return core::invalid_argument("the path holds a forbidden character", std::string(relative));
  const fs::path asked(relative);
  if (asked.is_absolute()) return core::invalid_argument("the path must be relative", std::string(relative));
  for (const fs::path& part : asked) {
    if (part == "..")
      return core::invalid_argument("the path leads out of its folder", std::string(relative));
  }
  std::error_code error;
  const fs::path base = fs::canonical(root, error);
  if (error) return core::not_found("no such folder", root.string());
  const fs::path file = fs::weakly_canonical(base / asked, error);
  if (error || !fs::exists(file, error)) return core::not_found("no such file", std::string(relative));
  auto [end, ignored] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (end != base.end())
    return core::invalid_argument("the path leads out of its folder", std::string(relative));
  if (!fs::is_regular_file(file, error)) return core::not_found("no such file", std::string(relative));
  return file;
}

std::string content_type_for(const std::filesystem::path& file) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".csv", "text/csv; charset=utf-8"},
      {".md", "text/markdown; charset=utf-8"},
      {".txt", "text/plain; charset=utf-8"},
      {".parquet", "application/vnd.apache.parquet"},
      {".woff2", "font/woff2"},
      {".map", "application/json"},
      {".wasm", "application/wasm"},
      {".jsonl", "application/jsonl"},
  }};
  const std::string extension = file.extension().string();
  for (const auto& [ext, type] : kTypes) {
    if (ext == extension) return std::string(type);
  }
  return "application/octet-stream";
}

}  // namespace planfirst::server
