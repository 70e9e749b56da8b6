// DocumentIndex is the full-text index behind the doc and policy sources: every .md, .markdown and
// .txt file under a folder (dot-files and dot-folders skipped), cut into sections by heading, in a
// SQLite FTS5 table (porter-stemmed, bm25-ranked) kept in a cache file. open() reuses the cache when
// every file's size, mtime and content hash match what it recorded, and rebuilds it in one
// transaction otherwise. search() may be called from several threads (one connection, a mutex).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "sources/document_sections.hpp"

struct sqlite3;

namespace planfirst::sources {

struct DocumentHit {
  std::int64_t id = 0;  // the section's row in the index
  DocumentSection section;
  std::string anchor;   // unique within its file: the heading, else the heading path, else "path@L12"
  double bm25 = 0;      // FTS5 bm25(): lower is better
  std::string excerpt;  // FTS5 snippet() of the body, matches in [brackets]
};

class DocumentIndex {
 public:
  // Indexes `folder` into `cache_file` (created, with its parent folders, when missing). Errors:
  // kNotFound (no such folder), kInvalidArgument (a file cannot be read), kUnavailable (the cache
  // cannot be opened or written), each naming the path.
  static core::Result<std::unique_ptr<DocumentIndex>> open(const std::filesystem::path& folder,
                                                           const std::filesystem::path& cache_file);
  ~DocumentIndex();
  DocumentIndex(const DocumentIndex&) = delete;
  DocumentIndex& operator=(const DocumentIndex&) = delete;

  // Sections matching the FTS5 expression `match`, best first (bm25, then file, then line), at most
  // `limit`. An empty `match` finds nothing. kInvalidArgument when FTS5 rejects the expression.
  core::Result<std::vector<DocumentHit>> search(std::string_view match, std::size_t limit) const;

  // The ids of the sections matching the FTS5 expression `match` (one term: which sections hold it).
  core::Result<std::vector<std::int64_t>> section_ids(std::string_view match) const;

  bool rebuilt() const { return rebuilt_; }  // whether open() had to (re)build the cache
  std::size_t file_count() const { return file_count_; }
  std::size_t section_count() const { return section_count_; }
  const std::filesystem::path& cache_file() const { return cache_file_; }

 private:
  struct ConstructionKey {};  // open() is the only way in

 public:
  struct Closer {
    void operator()(sqlite3* db) const;
  };
  DocumentIndex(ConstructionKey, std::unique_ptr<sqlite3, Closer> db, std::filesystem::path cache_file);

 private:
  mutable std::mutex mutex_;             // serializes use of db_
  std::unique_ptr<sqlite3, Closer> db_;  // guarded by mutex_
  std::filesystem::path cache_file_;
  bool rebuilt_ = false;
  std::size_t file_count_ = 0;
  std::size_t section_count_ = 0;
};

}  // namespace planfirst::sources
