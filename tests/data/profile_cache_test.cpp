#include "data/profile_cache.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "data/dataset.hpp"
#include "data/table_profiler.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::data {
namespace {

class ProfileCacheTest : public ::testing::Test {
 protected:
  CachedProfile profiled(const std::filesystem::path& csv) {
    core::Result<OpenedDataset> opened = open_dataset(csv);
    EXPECT_TRUE(opened.has_value()) << opened.error().describe();
    core::Result<SchemaProfile> profile = profile_table(*opened->db, opened->table);
    EXPECT_TRUE(profile.has_value()) << profile.error().describe();
    return {opened->table, *profile};
  }
  test_support::TempDir dir_;
  ProfileCache cache_{dir_.path() / "profiles"};
};

TEST_F(ProfileCacheTest, AStoredProfileIsFoundAgainByteForByte) {
  const std::filesystem::path csv = dir_.write("sales.csv", "region,revenue\nNorth,10\nSouth,20\n");
  const CachedProfile entry = profiled(csv);
  const std::optional<ProfileKey> key = cache_.key(csv, "");
  ASSERT_TRUE(key.has_value());
  EXPECT_FALSE(cache_.find(*key).has_value());

  cache_.store(*key, entry);
  const std::optional<CachedProfile> found = cache_.find(*cache_.key(csv, ""));

  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->table, entry.table);
  EXPECT_EQ(found->profile.to_json().dump(), entry.profile.to_json().dump());
}

TEST_F(ProfileCacheTest, AChangedFileOrAnotherTableMisses) {
  const std::filesystem::path csv = dir_.write("sales.csv", "region,revenue\nNorth,10\n");
  cache_.store(*cache_.key(csv, ""), profiled(csv));
  ASSERT_TRUE(cache_.find(*cache_.key(csv, "")).has_value());

  EXPECT_FALSE(cache_.find(*cache_.key(csv, "other")).has_value());
  std::ofstream(csv, std::ios::app) << "South,20\n";
  EXPECT_FALSE(cache_.find(*cache_.key(csv, "")).has_value());
}

TEST_F(ProfileCacheTest, ACorruptEntryIsAMissNotAnError) {
  const std::filesystem::path csv = dir_.write("sales.csv", "region,revenue\nNorth,10\n");
  const ProfileKey key = *cache_.key(csv, "");
  cache_.store(key, profiled(csv));
  std::ofstream(key.entry, std::ios::trunc) << "{\"table\": \"sales\", \"profile\": {\"version\": 99}}";

  EXPECT_FALSE(cache_.find(key).has_value());
}

TEST_F(ProfileCacheTest, OnlyRegularFilesWithACacheFolderHaveKeys) {
  const std::filesystem::path csv = dir_.write("sales.csv", "region,revenue\nNorth,10\n");
  EXPECT_FALSE(cache_.key("postgresql://localhost/db", "").has_value());
  EXPECT_FALSE(cache_.key(dir_.path(), "").has_value());
  EXPECT_FALSE(ProfileCache({}).key(csv, "").has_value());
}

}  // namespace
}  // namespace planfirst::data
