// ProfileCache keeps the SchemaProfile of a dataset file in a folder, keyed by the file's absolute
// path, size, modification time and the table asked for, so a second question about an unchanged
// file skips profiling. A miss, an unreadable or stale entry, or a failed store is never an error.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "data/schema_profile.hpp"

namespace planfirst::data {

struct CachedProfile {
  std::string table;  // the table open_dataset resolved
  SchemaProfile profile;
};

// Where the entry for one dataset file, as it was when the key was taken, is kept.
struct ProfileKey {
  std::filesystem::path entry;
};

class ProfileCache {
 public:
  explicit ProfileCache(std::filesystem::path dir) : dir_(std::move(dir)) {}  // empty: caches nothing

  // The key of `dataset` as it is now: take it before profiling, so a file that changes meanwhile
  // is stored under its old key. None when `dataset` is no regular file or the cache has no folder.
  std::optional<ProfileKey> key(const std::filesystem::path& dataset, std::string_view table) const;
  std::optional<CachedProfile> find(const ProfileKey& key) const;
  void store(const ProfileKey& key, const CachedProfile& entry) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace planfirst::data
