// DatasetPool hands the steps of a run the datasets they read, so a run opens its data once: an
// opening started early (prefetch) or a dataset a step gave back is reused for the same unchanged
// file; a CSV loaded to profile it is the one the plan runs on. A lease is one user's at a time and
// must end before its pool; openings and retired datasets' closings run off the caller's thread.
// Thread-safe.
#pragma once

#include <cstddef>
#include <filesystem>
#include <future>
#include <list>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "data/dataset.hpp"
#include "data/file_stamp.hpp"

namespace planfirst::data {

class DatasetPool;

// The file as it was when opened (a missing file: its path alone), and the table asked for ("" for the
// default).
struct DatasetKey {
  FileStamp file;
  std::string table;
};

// A dataset held by one user; back in its pool (idle, for the next acquire) when destroyed.
class DatasetLease {
 public:
  DatasetLease(DatasetLease&& other) noexcept;
  DatasetLease& operator=(DatasetLease&&) = delete;
  ~DatasetLease();

  DuckDbDatabase& db() const { return *file_.db; }
  const std::string& table() const { return table_; }
  // Closes the dataset on another thread instead of keeping it: its last reader is done.
  void retire();

 private:
  friend class DatasetPool;
  DatasetLease(DatasetPool* pool, DatasetKey key, OpenedFile file, std::string table)
      : pool_(pool), key_(std::move(key)), file_(std::move(file)), table_(std::move(table)) {}

  DatasetPool* pool_;  // nullptr once given back or retired
  DatasetKey key_;
  OpenedFile file_;
  std::string table_;
};

class DatasetPool {
 public:
  // Keeps at most `keep_idle` datasets open between leases; the least recently given back closes first.
  explicit DatasetPool(std::size_t keep_idle = 1) : keep_idle_(keep_idle) {}
  DatasetPool(const DatasetPool&) = delete;
  DatasetPool& operator=(const DatasetPool&) = delete;
  ~DatasetPool();  // waits for the openings and closings under way

  // Starts opening `path` (open_dataset_file) on another thread; the table is chosen at acquire.
  void prefetch(const std::filesystem::path& path, std::string_view table = {});
  // What open_dataset(path, table) gives, from an idle or prefetched opening of the unchanged
  // file when one serves; its errors.
  core::Result<DatasetLease> acquire(const std::filesystem::path& path, std::string_view table = {});

  std::size_t idle_count() const;
  std::size_t opens() const;  // files opened so far, by prefetch or acquire

 private:
  friend class DatasetLease;
  struct Idle {
    DatasetKey key;
    OpenedFile file;
  };
  struct Opening {
    DatasetKey key;
    std::future<core::Result<OpenedFile>> file;
  };

  static DatasetKey key_of(const std::filesystem::path& path, std::string_view table);
  core::Result<OpenedFile> open(const std::filesystem::path& path, std::string_view table);
  // Whether `file`, opened as `opened`, can give the table `wanted` asks for.
  static bool serves(const DatasetKey& opened, const OpenedFile& file, const DatasetKey& wanted);
  core::Result<DatasetLease> lease(DatasetKey key, OpenedFile file, const std::filesystem::path& path);
  void give_back(DatasetKey key, OpenedFile file);
  void close_later(OpenedFile file);  // caller holds mutex_

  const std::size_t keep_idle_;
  mutable std::mutex mutex_;
  std::list<Idle> idle_;                    // guarded by mutex_; most recently given back first
  std::vector<Opening> openings_;           // guarded by mutex_
  std::vector<std::future<void>> closing_;  // guarded by mutex_
  std::size_t opens_ = 0;                   // guarded by mutex_
};

}  // namespace planfirst::data
