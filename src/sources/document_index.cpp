#include "sources/document_index.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <map>
#include <system_error>
#include <tuple>

#include "core/content_hash.hpp"
#include "core/file_text.hpp"

namespace planfirst::sources {
namespace {

namespace fs = std::filesystem;

// Bumped whenever the tables or the sectioning change: an old cache is then rebuilt.
constexpr std::string_view kSchemaVersion = "2";

constexpr std::string_view kSchema = R"sql(
DROP TABLE IF EXISTS sections_fts;
DROP TABLE IF EXISTS sections;
DROP TABLE IF EXISTS files;
DROP TABLE IF EXISTS meta;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, hash TEXT NOT NULL);
CREATE TABLE sections(id INTEGER PRIMARY KEY, file TEXT NOT NULL, anchor TEXT NOT NULL, heading TEXT NOT NULL,
                      heading_path TEXT NOT NULL, first_line INTEGER NOT NULL, last_line INTEGER NOT NULL,
                      body TEXT NOT NULL);
CREATE VIRTUAL TABLE sections_fts USING fts5(heading, heading_path, body, content='sections', content_rowid='id',
                                             tokenize='porter unicode61');
)sql";

// A section's own heading weighs four times its body, the headings above it as much as the body: a
// question naming a section's subject finds that section rather than its siblings.
constexpr std::string_view kSearch = R"sql(
SELECT s.file, s.anchor, s.heading, s.heading_path, s.first_line, s.last_line, s.body,
       bm25(sections_fts, 4.0, 1.0, 1.0) AS rank, snippet(sections_fts, 2, '[', ']', '...', 24), s.id
FROM sections_fts JOIN sections AS s ON s.id = sections_fts.rowid
WHERE sections_fts MATCH ?1
ORDER BY rank, s.file, s.first_line
LIMIT ?2
)sql";

// The sections holding one term, for weighing the question's terms by how rare they are.
constexpr std::string_view kSectionIds =
    "SELECT rowid FROM sections_fts WHERE sections_fts MATCH ?1 ORDER BY rowid";

struct FileStamp {
  std::string path;  // relative, '/'-separated
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::string hash;
  std::string text;
  friend bool operator==(const FileStamp& a, const FileStamp& b) {
    return std::tie(a.path, a.size, a.mtime_ns, a.hash) == std::tie(b.path, b.size, b.mtime_ns, b.hash);
  }
};

struct StatementCloser {
  void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementCloser>;

core::Error sqlite_error(sqlite3* db, std::string_view what, const fs::path& file) {
  return core::unavailable(std::string(what) + ": " + sqlite3_errmsg(db), file.string());
}

core::Result<Statement> prepare(sqlite3* db, std::string_view sql, const fs::path& file) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr) != SQLITE_OK) {
    return sqlite_error(db, "cannot prepare an index statement", file);
  }
  return Statement(raw);
}

std::string column_text(sqlite3_stmt* statement, int column) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
  return text ? std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(statement, column)))
              : std::string();
}

void bind_text(sqlite3_stmt* statement, int index, std::string_view text) {
  sqlite3_bind_text(statement, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

bool indexable(const fs::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".md" || extension == ".markdown" || extension == ".txt";
}

// Every indexable file under `folder`, sorted by relative path, read whole.
core::Result<std::vector<FileStamp>> scan(const fs::path& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return core::not_found("no such document folder", folder.string());
  std::vector<FileStamp> files;
  fs::recursive_directory_iterator it(folder, error), end;
  if (error) return core::invalid_argument("cannot list the folder: " + error.message(), folder.string());
  for (; it != end; it.increment(error)) {
    if (error) return core::invalid_argument("cannot list the folder: " + error.message(), folder.string());
    const fs::path& path = it->path();
    if (path.filename().string().starts_with('.')) {
      if (it->is_directory(error)) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(error) || !indexable(path)) continue;
    core::Result<std::string> text = core::read_file_text(path);
    if (!text) return text.error();
    FileStamp stamp;
    stamp.path = path.lexically_relative(folder).generic_string();
    stamp.size = static_cast<std::int64_t>(text->size());
    stamp.mtime_ns = static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                   fs::last_write_time(path, error).time_since_epoch())
                                                   .count());
    stamp.hash = core::to_hex(core::checksum64(*text));
    stamp.text = std::move(*text);
    files.push_back(std::move(stamp));
  }
  std::sort(files.begin(), files.end(),
            [](const FileStamp& a, const FileStamp& b) { return a.path < b.path; });
  return files;
}

// What the cache recorded; empty when it has no (current) tables.
std::vector<FileStamp> recorded_files(sqlite3* db) {
  std::vector<FileStamp> files;
  sqlite3_stmt* raw = nullptr;
  constexpr std::string_view kVersion = "SELECT value FROM meta WHERE key = 'schema_version'";
  if (sqlite3_prepare_v2(db, kVersion.data(), static_cast<int>(kVersion.size()), &raw, nullptr) != SQLITE_OK)
    return files;
  Statement version(raw);
  if (sqlite3_step(raw) != SQLITE_ROW || column_text(raw, 0) != kSchemaVersion) return files;
  constexpr std::string_view kFiles = "SELECT path, size, mtime_ns, hash FROM files ORDER BY path";
  if (sqlite3_prepare_v2(db, kFiles.data(), static_cast<int>(kFiles.size()), &raw, nullptr) != SQLITE_OK)
    return files;
  Statement rows(raw);
  while (sqlite3_step(raw) == SQLITE_ROW) {
    files.push_back({column_text(raw, 0),
                     sqlite3_column_int64(raw, 1),
                     sqlite3_column_int64(raw, 2),
                     column_text(raw, 3),
                     {}});
  }
  return files;
}

// Anchors unique within one file: the heading, else the heading path, else the path and line.
std::vector<std::string> anchors_of(const std::vector<DocumentSection>& sections) {
  std::map<std::string, int> headings, paths;
  for (const DocumentSection& s : sections) {
    ++headings[s.heading];
    ++paths[s.heading_path];
  }
  std::vector<std::string> anchors;
  for (const DocumentSection& s : sections) {
    if (headings[s.heading] == 1) {
      anchors.push_back(s.heading);
    } else if (paths[s.heading_path] == 1) {
      anchors.push_back(s.heading_path);
    } else {
      anchors.push_back(s.heading_path + "@L" + std::to_string(s.first_line));
    }
  }
  return anchors;
}

core::Result<std::size_t> rebuild(sqlite3* db, const std::vector<FileStamp>& files, const fs::path& cache) {
  if (sqlite3_exec(db, std::string(kSchema).c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    return sqlite_error(db, "cannot create the index tables", cache);
  }
  core::Result<Statement> meta =
      prepare(db, "INSERT INTO meta(key, value) VALUES ('schema_version', ?1)", cache);
  core::Result<Statement> file =
      prepare(db, "INSERT INTO files(path, size, mtime_ns, hash) VALUES (?1, ?2, ?3, ?4)", cache);
  core::Result<Statement> section =
      prepare(db,
              "INSERT INTO sections(file, anchor, heading, heading_path, first_line, last_line, body) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
              cache);
  if (!meta) return meta.error();
  if (!file) return file.error();
  if (!section) return section.error();
  bind_text(meta->get(), 1, kSchemaVersion);
  if (sqlite3_step(meta->get()) != SQLITE_DONE) return sqlite_error(db, "cannot write the index", cache);
  std::size_t count = 0;
  for (const FileStamp& stamp : files) {
    sqlite3_stmt* f = file->get();
    sqlite3_reset(f);
    bind_text(f, 1, stamp.path);
    sqlite3_bind_int64(f, 2, stamp.size);
    sqlite3_bind_int64(f, 3, stamp.mtime_ns);
    bind_text(f, 4, stamp.hash);
    if (sqlite3_step(f) != SQLITE_DONE) return sqlite_error(db, "cannot write the index", cache);
    const std::vector<DocumentSection> sections = split_into_sections(stamp.path, stamp.text);
    const std::vector<std::string> anchors = anchors_of(sections);
    for (std::size_t i = 0; i < sections.size(); ++i) {
      sqlite3_stmt* s = section->get();
      sqlite3_reset(s);
      bind_text(s, 1, sections[i].file);
      bind_text(s, 2, anchors[i]);
      bind_text(s, 3, sections[i].heading);
      bind_text(s, 4, sections[i].heading_path);
      sqlite3_bind_int64(s, 5, static_cast<sqlite3_int64>(sections[i].first_line));
      sqlite3_bind_int64(s, 6, static_cast<sqlite3_int64>(sections[i].last_line));
      bind_text(s, 7, sections[i].body);
      if (sqlite3_step(s) != SQLITE_DONE) return sqlite_error(db, "cannot write the index", cache);
      ++count;
    }
  }
  if (sqlite3_exec(db, "INSERT INTO sections_fts(sections_fts) VALUES ('rebuild')", nullptr, nullptr,
                   nullptr) != SQLITE_OK) {
    return sqlite_error(db, "cannot build the full-text index", cache);
  }
  return count;
}

std::size_t count_sections(sqlite3* db) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sections", -1, &raw, nullptr) != SQLITE_OK) return 0;
  Statement statement(raw);
  return sqlite3_step(raw) == SQLITE_ROW ? static_cast<std::size_t>(sqlite3_column_int64(raw, 0)) : 0;
}

}  // namespace

void DocumentIndex::Closer::operator()(sqlite3* db) const {
  sqlite3_close_v2(db);
}

DocumentIndex::DocumentIndex(ConstructionKey, std::unique_ptr<sqlite3, Closer> db, fs::path cache_file)
    : db_(std::move(db)), cache_file_(std::move(cache_file)) {}

DocumentIndex::~DocumentIndex() = default;

core::Result<std::unique_ptr<DocumentIndex>> DocumentIndex::open(const fs::path& folder,
                                                                 const fs::path& cache_file) {
  core::Result<std::vector<FileStamp>> files = scan(folder);
  if (!files) return files.error();
  std::error_code error;
  if (cache_file.has_parent_path()) fs::create_directories(cache_file.parent_path(), error);
  sqlite3* raw = nullptr;
  const int opened =
      sqlite3_open_v2(cache_file.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<sqlite3, Closer> db(raw);
  if (opened != SQLITE_OK) return sqlite_error(raw, "cannot open the document index", cache_file);
  sqlite3_busy_timeout(raw, 10'000);
  // One writer at a time: a second process waits, then sees the first one's fresh index.
  if (sqlite3_exec(raw, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return sqlite_error(raw, "cannot lock the document index", cache_file);
  }
  const bool current = recorded_files(raw) == *files;
  if (!current) {
    core::Result<std::size_t> built = rebuild(raw, *files, cache_file);
    if (!built) {
      sqlite3_exec(raw, "ROLLBACK", nullptr, nullptr, nullptr);
      return built.error();
    }
  }
  if (sqlite3_exec(raw, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
    core::Error failed = sqlite_error(raw, "cannot save the document index", cache_file);
    sqlite3_exec(raw, "ROLLBACK", nullptr, nullptr, nullptr);
    return failed;
  }
  auto index = std::make_unique<DocumentIndex>(ConstructionKey{}, std::move(db), cache_file);
  index->rebuilt_ = !current;
  index->file_count_ = files->size();
  index->section_count_ = count_sections(index->db_.get());
  return index;
}

core::Result<std::vector<std::int64_t>> DocumentIndex::section_ids(std::string_view match) const {
  std::vector<std::int64_t> ids;
  if (match.empty()) return ids;
  const std::lock_guard lock(mutex_);
  core::Result<Statement> statement = prepare(db_.get(), kSectionIds, cache_file_);
  if (!statement) return statement.error();
  sqlite3_stmt* s = statement->get();
  bind_text(s, 1, match);
  int step = SQLITE_ROW;
  while ((step = sqlite3_step(s)) == SQLITE_ROW) ids.push_back(sqlite3_column_int64(s, 0));
  if (step != SQLITE_DONE) {
    return core::invalid_argument(
        "the full-text search refused the query " + std::string(match) + ": " + sqlite3_errmsg(db_.get()),
        cache_file_.string());
  }
  return ids;
}

core::Result<std::vector<DocumentHit>> DocumentIndex::search(std::string_view match,
                                                             std::size_t limit) const {
  std::vector<DocumentHit> hits;
  if (match.empty() || limit == 0) return hits;
  const std::lock_guard lock(mutex_);
  sqlite3* db = db_.get();
  core::Result<Statement> statement = prepare(db, kSearch, cache_file_);
  if (!statement) return statement.error();
  sqlite3_stmt* s = statement->get();
  bind_text(s, 1, match);
  sqlite3_bind_int64(s, 2, static_cast<sqlite3_int64>(std::min<std::size_t>(limit, 1'000'000)));
  int step = SQLITE_ROW;
  while ((step = sqlite3_step(s)) == SQLITE_ROW) {
    DocumentHit hit;
    hit.section.file = column_text(s, 0);
    hit.anchor = column_text(s, 1);
    hit.section.heading = column_text(s, 2);
    hit.section.heading_path = column_text(s, 3);
    hit.section.first_line = static_cast<std::size_t>(sqlite3_column_int64(s, 4));
    hit.section.last_line = static_cast<std::size_t>(sqlite3_column_int64(s, 5));
    hit.section.body = column_text(s, 6);
    hit.bm25 = sqlite3_column_double(s, 7);
    hit.excerpt = column_text(s, 8);
    hit.id = sqlite3_column_int64(s, 9);
    hits.push_back(std::move(hit));
  }
  if (step != SQLITE_DONE) {
    return core::invalid_argument(
        "the full-text search refused the query " + std::string(match) + ": " + sqlite3_errmsg(db),
        cache_file_.string());
  }
  return hits;
}

}  // namespace planfirst::sources
