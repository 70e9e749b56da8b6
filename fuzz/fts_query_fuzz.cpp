// Fuzzes the question -> FTS5 query builder of the doc and policy sources with arbitrary questions:
// it must never crash or throw, must give the same query twice, must write only quoted words joined
// by OR (no operator, column filter or quote of the question survives), and SQLite FTS5 must accept
// every query it writes (checked against a small index built once per process).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>

#include "core/asset_store.hpp"
#include "sources/document_index.hpp"
#include "sources/fts_query.hpp"

namespace {

using planfirst::sources::DocumentIndex;
using planfirst::sources::FtsQueryBuilder;

const FtsQueryBuilder& builder() {
  static const FtsQueryBuilder instance = [] {
    auto loaded = FtsQueryBuilder::load(planfirst::core::AssetStore());
    if (!loaded) __builtin_trap();
    return std::move(*loaded);
  }();
  return instance;
}

const DocumentIndex& index() {
  static const std::unique_ptr<DocumentIndex> instance = [] {
    const auto folder =
        std::filesystem::temp_directory_path() / ("planfirst-fts-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    std::ofstream(folder / "release.md")
        << "# Release process\n## Hotfixes\nA hotfix may be released at any time.\n";
    auto opened = DocumentIndex::open(folder, folder / ".index.sqlite");
    if (!opened) __builtin_trap();
    return std::move(*opened);
  }();
  return *instance;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view question(reinterpret_cast<const char*>(data), size);
  const std::string query = builder().build(question);
  if (query != builder().build(question)) __builtin_trap();

  std::string expected;
  for (const std::string& term : builder().terms(question)) {
    if (term.empty() || term.find('"') != std::string::npos) __builtin_trap();
    if (!expected.empty()) expected += " OR ";
    expected += "\"" + term + "\"";
  }
  if (query != expected) __builtin_trap();

  if (!index().search(query, 5).has_value()) __builtin_trap();
  return 0;
}
