#include "data/dataset_pool.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <utility>

namespace planfirst::data {

DatasetLease::DatasetLease(DatasetLease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      key_(std::move(other.key_)),
      file_(std::move(other.file_)),
      table_(std::move(other.table_)) {}

DatasetLease::~DatasetLease() {
  if (pool_ != nullptr) pool_->give_back(std::move(key_), std::move(file_));
}

void DatasetLease::retire() {
  if (pool_ == nullptr) return;
  const std::lock_guard<std::mutex> lock(pool_->mutex_);
  pool_->close_later(std::move(file_));
  pool_ = nullptr;
}

DatasetPool::~DatasetPool() {
  std::vector<Opening> openings;
  std::vector<std::future<void>> closing;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    openings = std::move(openings_);
    closing = std::move(closing_);
  }
  for (Opening& opening : openings) opening.file.wait();
  for (std::future<void>& done : closing) done.wait();
}

DatasetKey DatasetPool::key_of(const std::filesystem::path& path, std::string_view table) {
  return DatasetKey{stamp_of(path).value_or(FileStamp{path.string()}), std::string(table)};
}

bool DatasetPool::serves(const DatasetKey& opened, const OpenedFile& file, const DatasetKey& wanted) {
  if (opened.file != wanted.file) return false;
  if (file.loaded_table.empty()) return true;  // a database file: any of its tables
  return wanted.table == opened.table || wanted.table == file.loaded_table;
}

void DatasetPool::prefetch(const std::filesystem::path& path, std::string_view table) {
  DatasetKey key = key_of(path, table);
  std::future<core::Result<OpenedFile>> file = std::async(
      std::launch::async, [path, table = std::string(table)] { return open_dataset_file(path, table); });
  const std::lock_guard<std::mutex> lock(mutex_);
  ++opens_;
  openings_.push_back(Opening{std::move(key), std::move(file)});
}

core::Result<DatasetLease> DatasetPool::acquire(const std::filesystem::path& path, std::string_view table) {
  DatasetKey key = key_of(path, table);
  std::optional<OpenedFile> idle_file;
  std::vector<Opening> started;  // openings of the same file: whether one serves shows once it is open
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto idle = std::find_if(idle_.begin(), idle_.end(),
                                   [&](const Idle& entry) { return serves(entry.key, entry.file, key); });
    if (idle != idle_.end()) {
      idle_file.emplace(std::move(idle->file));
      idle_.erase(idle);
    }
    for (auto opening = openings_.begin(); opening != openings_.end();) {
      if (!idle_file && opening->key.file.path == key.file.path) {
        started.push_back(std::move(*opening));
        opening = openings_.erase(opening);
      } else {
        ++opening;
      }
    }
  }
  std::optional<core::Result<DatasetLease>> leased;
  if (idle_file) leased.emplace(lease(key, std::move(*idle_file), path));
  for (Opening& opening : started) {
    core::Result<OpenedFile> file = opening.file.get();
    if (!file) continue;  // a failed prefetch is opened again, so the error describes the file as it is now
    if (!leased && serves(opening.key, *file, key)) {
      leased.emplace(lease(key, std::move(*file), path));
    } else {
      give_back(std::move(opening.key), std::move(*file));
    }
  }
  if (leased) return std::move(*leased);
  core::Result<OpenedFile> file = open(path, table);
  if (!file) return file.error();
  return lease(std::move(key), std::move(*file), path);
}

core::Result<OpenedFile> DatasetPool::open(const std::filesystem::path& path, std::string_view table) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++opens_;
  }
  return open_dataset_file(path, table);
}

core::Result<DatasetLease> DatasetPool::lease(DatasetKey key, OpenedFile file,
                                              const std::filesystem::path& path) {
  core::Result<std::string> table = choose_table(file, path, key.table);
  if (!table) {
    give_back(std::move(key), std::move(file));
    return table.error();
  }
  return DatasetLease(this, std::move(key), std::move(file), std::move(*table));
}

std::size_t DatasetPool::idle_count() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return idle_.size();
}

std::size_t DatasetPool::opens() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return opens_;
}

void DatasetPool::give_back(DatasetKey key, OpenedFile file) {
  const std::lock_guard<std::mutex> lock(mutex_);
  idle_.push_front(Idle{std::move(key), std::move(file)});
  while (idle_.size() > keep_idle_) {
    close_later(std::move(idle_.back().file));
    idle_.pop_back();
  }
}

void DatasetPool::close_later(OpenedFile file) {
  std::erase_if(closing_, [](const std::future<void>& done) {
    return done.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  });
  closing_.push_back(std::async(std::launch::async, [file = std::move(file)]() mutable { file.db.reset(); }));
}

}  // namespace planfirst::data
