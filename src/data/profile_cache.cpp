#include "data/profile_cache.hpp"

#include <nlohmann/json.hpp>

#include "core/content_hash.hpp"
#include "core/file_text.hpp"
#include "data/file_stamp.hpp"
#include "data/table_loader.hpp"

namespace planfirst::data {

std::optional<ProfileKey> ProfileCache::key(const std::filesystem::path& dataset,
                                            std::string_view table) const {
  if (dir_.empty()) return std::nullopt;
  const std::optional<FileStamp> stamp = stamp_of(dataset);
  if (!stamp) return std::nullopt;
  std::uint64_t key = core::fnv1a64(stamp->path);
  key = core::fnv1a64(std::string(1, '\0') + std::string(table), key);
  const std::string rules = ":v" + std::to_string(kSchemaProfileVersion) + "." +
                            std::to_string(kRoleInferenceRevision) + "." +
                            std::to_string(kTableLoaderRevision);
  key = core::fnv1a64(std::to_string(stamp->size) + ":" + std::to_string(stamp->modified) + rules, key);
  return ProfileKey{dir_ / (core::to_hex(core::fmix64(key)) + ".json")};
}

std::optional<CachedProfile> ProfileCache::find(const ProfileKey& key) const {
  core::Result<std::string> text = core::read_file_text(key.entry);
  if (!text) return std::nullopt;
  const core::Json json = core::Json::parse(*text, nullptr, false);
  if (!json.is_object() || !json.contains("table") || !json["table"].is_string() ||
      !json.contains("profile")) {
    return std::nullopt;
  }
  core::Result<SchemaProfile> profile = SchemaProfile::from_json(json["profile"]);
  if (!profile) return std::nullopt;
  return CachedProfile{json["table"].get<std::string>(), std::move(*profile)};
}

void ProfileCache::store(const ProfileKey& key, const CachedProfile& entry) const {
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  const core::Json json{{"table", entry.table}, {"profile", entry.profile.to_json()}};
  (void)core::write_file_atomically(key.entry, json.dump());  // a cache: failing to keep it costs only time
}

}  // namespace planfirst::data
