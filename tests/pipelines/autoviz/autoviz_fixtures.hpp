// Shared by the autoviz tests: the shipped registries loaded once per call, case files under
// tests/pipelines/autoviz/cases/, and asset overrides written to a temporary folder.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::autoviz::testing {

// The value of `result`; a failed load throws, which fails the test with the error's description.
template <typename T>
T loaded(core::Result<T> result) {
  if (!result) throw std::runtime_error(result.error().describe());
  return std::move(*result);
}

inline core::Json case_json(const std::string& name) {
  std::ifstream in(std::filesystem::path(PLANFIRST_SOURCE_DIR) / "tests/pipelines/autoviz/cases" / name);
  if (!in) throw std::runtime_error("missing case file " + name);
  std::stringstream text;
  text << in.rdbuf();
  return core::Json::parse(text.str());
}

// An override folder whose files replace built-in assets of the same relative path.
class AssetOverrides {
 public:
  AssetOverrides() { std::filesystem::create_directories(dir_.path() / "autoviz"); }
  void write(const std::string& relative, const std::string& text) const { dir_.write(relative, text); }
  // Writes the built-in `relative` without the line `removed`; throws when the line is not there.
  void write_without(std::string_view relative, const std::string& removed) const {
    std::string text = loaded(core::AssetStore().read(relative));
    const std::size_t at = text.find(removed);
    if (at == std::string::npos)
      throw std::runtime_error("no such line in " + std::string(relative) + ": " + removed);
    write(std::string(relative), text.erase(at, removed.size()));
  }
  core::AssetStore store() const { return core::AssetStore(dir_.path()); }

 private:
  test_support::TempDir dir_;
};

}  // namespace planfirst::autoviz::testing
