// IndexCache keeps built VectorIndexes in a directory, one file per key; the key hashes the
// embedder's identity, its dimensions and every text, in order, so an index is rebuilt only when
// what it indexes changes. A stored file is used only when its header (magic, version, key, kind,
// count, dimensions, checksums) matches: a missing, truncated, corrupt or foreign file is re-embedded
// and rewritten (atomically, by rename), never trusted. Immutable; threads may share one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "embed/embedder.hpp"
#include "embed/vector_index.hpp"

namespace planfirst::embed {

inline constexpr std::uint32_t kIndexCacheFormatVersion = 1;  // bump when the file layout changes

// 16 hex digits: fmix64(FNV-1a 64) over identity, dimensions and each length-prefixed text.
std::string index_cache_key(const Embedder& embedder, std::span<const std::string> texts);

enum class CacheOutcome {
  kLoaded,   // the stored file was intact and belonged to the key: nothing embedded
  kBuilt,    // no file was stored for the key
  kRebuilt,  // a file was there but refused (see CachedIndex::refusal)
};
std::string_view to_string(CacheOutcome outcome);  // "loaded", "built", "rebuilt"

struct CachedIndex {
  VectorIndex index;
  CacheOutcome outcome = CacheOutcome::kBuilt;
  std::string key;
  std::filesystem::path file;
  std::string refusal;      // why a stored file was refused; empty unless kRebuilt
  std::string store_error;  // why the new file could not be written; the index is usable anyway
};

class IndexCache {
 public:
  explicit IndexCache(std::filesystem::path directory, VectorIndexOptions options = {});

  // The index over `texts` (ids = positions in `texts`): loaded, or embedded with `embedder`, built
  // and stored. Errors: the embedder's, or kInternal when FAISS fails to build.
  core::Result<CachedIndex> load_or_build(const Embedder& embedder, std::span<const std::string> texts) const;

  std::filesystem::path file_for(std::string_view key) const;  // <directory>/<key>.pfindex
  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  VectorIndexOptions options_;
};

}  // namespace planfirst::embed
