// AssetStore reads the data files planfirst ships in assets/ (contracts, prompts, registries), which
// are compiled into the binary; a file of the same relative path in the override folder wins.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::core {

class AssetStore {
 public:
  // Built-in assets only.
  AssetStore() = default;
  // Built-in assets, each overridable by `override_dir`/<path> when that file exists.
  explicit AssetStore(std::filesystem::path override_dir) : override_dir_(std::move(override_dir)) {}

  // The bytes of `path` (e.g. "contracts/analyst_plan.schema.json"), or kNotFound.
  Result<std::string> read(std::string_view path) const;
  // Relative paths of every built-in asset under `prefix` (e.g. "contracts/"), sorted.
  std::vector<std::string> list(std::string_view prefix) const;
  // Where `path` was read from: the override file, or "builtin:<path>".
  std::string origin(std::string_view path) const;

 private:
  std::optional<std::filesystem::path> override_file(std::string_view path) const;

  std::optional<std::filesystem::path> override_dir_;
};

}  // namespace planfirst::core
