#include "pipelines/autoviz/report/run_manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <system_error>

#include "core/content_hash.hpp"
#include "core/file_text.hpp"
#include "core/join.hpp"

namespace planfirst::autoviz {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr std::size_t kNamedEntries = 3;  // entries a refusal names

struct RecordedFile {
  std::string path;  // relative to the folder, '/'-separated
  std::uint64_t bytes = 0;
  std::string checksum;  // core::checksum64 in hex
};

struct Record {
  std::string question;
  std::vector<RecordedFile> files;
};

std::string checksum_of(const std::string& bytes) {
  return core::to_hex(core::checksum64(bytes));
}

// A recorded name that stays inside the folder: relative, no "..", no root.
bool stays_inside(const fs::path& relative) {
  if (relative.empty() || relative.has_root_path()) return false;
  return std::none_of(relative.begin(), relative.end(),
                      [](const fs::path& part) { return part == ".." || part.empty(); });
}

// Whether `path`'s folder, with every link followed, lies in `dir` (links followed too).
bool resolves_inside(const fs::path& path, const fs::path& dir) {
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(dir, ec);
  if (ec) return false;
  const fs::path parent = fs::weakly_canonical(path.parent_path(), ec);
  if (ec) return false;
  auto [root_end, parent_at] = std::mismatch(root.begin(), root.end(), parent.begin(), parent.end());
  return root_end == root.end();
}

// The folder's record; nullopt when there is none. kInvalidArgument naming it when it is unreadable.
core::Result<std::optional<Record>> read_record(const fs::path& dir) {
  const fs::path file = dir / kRunManifestName;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec))) return std::optional<Record>();
  core::Result<std::string> text = core::read_file_text(file);
  if (!text)
    return core::invalid_argument("cannot read the record of the previous run: " + text.error().message,
                                  file.string());
  const Json json = Json::parse(*text, nullptr, false);
  const auto unreadable = [&](std::string_view why) {
    return core::invalid_argument(fmt::format("the record of the previous run is {}; remove it, or choose "
                                              "a new folder with --out",
                                              why),
                                  file.string());
  };
  if (!json.is_object() || !json.contains("files") || !json["files"].is_array())
    return unreadable("not valid");
  if (json.value("format", 0) > kRunManifestFormat) return unreadable("of a newer planfirst");
  Record record;
  record.question = json.value("question", std::string());
  for (const Json& entry : json["files"]) {
    if (!entry.is_object() || !entry.value("path", Json()).is_string()) return unreadable("not valid");
    record.files.push_back({entry["path"].get<std::string>(), entry.value("bytes", std::uint64_t{0}),
                            entry.value("checksum", std::string())});
  }
  return std::optional<Record>(std::move(record));
}

core::Result<void> write_record(const fs::path& dir, const Record& record) {
  Json files = Json::array();
  for (const RecordedFile& file : record.files) {
    files.push_back({{"path", file.path}, {"bytes", file.bytes}, {"checksum", file.checksum}});
  }
  const Json json{{"format", kRunManifestFormat}, {"question", record.question}, {"files", std::move(files)}};
  return core::write_file_atomically(dir / kRunManifestName, json.dump(2) + "\n");
}

enum class Found {
  kUnchanged,  // a plain file inside the folder with the bytes the run wrote: removable
  kGone,       // no longer there
  kChanged,    // there, but edited or replaced since: the user's now
  kOutside,    // a name that leads out of the folder (or to the record itself): never touched
};

Found find(const fs::path& dir, const RecordedFile& file) {
  const fs::path relative = fs::path(file.path).lexically_normal();
  if (!stays_inside(relative) || relative == fs::path(kRunManifestName)) return Found::kOutside;
  const fs::path path = dir / relative;
  if (!resolves_inside(path, dir)) return Found::kOutside;
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (!fs::exists(status)) return Found::kGone;
  if (!fs::is_regular_file(status) || fs::file_size(path, ec) != file.bytes || ec) return Found::kChanged;
  core::Result<std::string> bytes = core::read_file_text(path);
  return bytes && checksum_of(*bytes) == file.checksum ? Found::kUnchanged : Found::kChanged;
}

// "a, b, c and 2 more" of the first kNamedEntries names.
std::string some_of(std::vector<std::string> names) {
  const std::size_t named = std::min(names.size(), kNamedEntries);
  std::string listed = core::join(std::vector<std::string>(names.begin(), names.begin() + named));
  if (names.size() > named) listed += fmt::format(" and {} more", names.size() - named);
  return listed;
}

// The folder's record and what became of each file it lists, once the folder may take a run: it
// does not exist, is empty, or holds a record whose files are unchanged or gone.
struct Inspection {
  Record record;
  std::vector<Found> found;  // one per record.files
};

core::Result<Inspection> inspect(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status status = fs::status(dir, ec);
  if (!fs::exists(status)) return Inspection{};
  if (!fs::is_directory(status)) {
    return core::invalid_argument("the output folder is a file; choose a folder with --out", dir.string());
  }
  core::Result<std::optional<Record>> record = read_record(dir);
  if (!record) return record.error();
  if (record->has_value()) {
    Inspection inspection{std::move(**record), {}};
    std::vector<std::string> changed;
    for (const RecordedFile& file : inspection.record.files) {
      inspection.found.push_back(find(dir, file));
      if (inspection.found.back() == Found::kChanged) changed.push_back(file.path);
    }
    if (changed.empty()) return inspection;
    return core::failed_precondition(
        fmt::format("the output folder holds files of the previous run changed since it wrote them ({}); "
                    "nothing was written or deleted: move them away, or choose a new folder with --out",
                    some_of(changed)),
        dir.string());
  }
  std::vector<std::string> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    entries.push_back(it->path().filename().string());
  }
  if (ec) return core::invalid_argument("cannot list the output folder: " + ec.message(), dir.string());
  if (entries.empty()) return Inspection{};
  std::sort(entries.begin(), entries.end());
  const std::string listed = some_of(entries);
  return core::failed_precondition(
      fmt::format("the output folder holds files planfirst did not write ({}) and no record of a run "
                  "({}); nothing was written or deleted: choose a new or empty folder with --out",
                  listed, kRunManifestName),
      dir.string());
}

}  // namespace

core::Result<void> check_output_folder(const fs::path& dir) {
  core::Result<Inspection> inspection = inspect(dir);
  if (!inspection) return inspection.error();
  return core::ok();
}

core::Result<PreviousRun> clear_previous_run(const fs::path& dir) {
  core::Result<Inspection> inspection = inspect(dir);  // each recorded file read once
  if (!inspection) return inspection.error();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return core::invalid_argument("cannot create the output folder: " + ec.message(), dir.string());
  PreviousRun previous;
  previous.question = inspection->record.question;
  for (std::size_t i = 0; i < inspection->record.files.size(); ++i) {
    const RecordedFile& file = inspection->record.files[i];
    const Found found = inspection->found[i];
    if (found == Found::kGone) continue;
    if (found == Found::kUnchanged && fs::remove(dir / fs::path(file.path).lexically_normal(), ec) && !ec) {
      previous.removed.push_back(file.path);
    } else {
      previous.kept.push_back(file.path);
    }
  }
  if (core::Result<void> written = write_record(dir, Record{}); !written) return written.error();
  return previous;
}

core::Result<void> record_run_files(const fs::path& dir, std::string_view question,
                                    const std::vector<fs::path>& files) {
  Record record{std::string(question), {}};
  std::set<std::string> seen;
  for (const fs::path& file : files) {
    const fs::path relative = file.lexically_normal().lexically_relative(dir.lexically_normal());
    if (!stays_inside(relative) || !seen.insert(relative.generic_string()).second) continue;
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(dir / relative, ec))) continue;
    core::Result<std::string> bytes = core::read_file_text(dir / relative);
    if (!bytes) continue;
    record.files.push_back({relative.generic_string(), bytes->size(), checksum_of(*bytes)});
  }
  return write_record(dir, record);
}

std::string describe(const PreviousRun& previous, const fs::path& dir) {
  if (previous.removed.empty() && previous.kept.empty()) return {};
  std::string text = fmt::format("replaced the previous run's {} file{} in {}", previous.removed.size(),
                                 previous.removed.size() == 1 ? "" : "s", dir.string());
  if (!previous.question.empty()) text += fmt::format(" (\"{}\")", previous.question);
  if (!previous.kept.empty()) {
    text += fmt::format("; left {}, which it names outside the folder or which could not be removed",
                        some_of(previous.kept));
  }
  return text;
}

}  // namespace planfirst::autoviz
