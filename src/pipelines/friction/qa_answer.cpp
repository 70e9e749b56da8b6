#include "pipelines/friction/qa_answer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "core/join.hpp"
#include "core/number_text.hpp"
#include "core/tokenizer.hpp"
#include "data/duckdb_database.hpp"
#include "data/sql_quoting.hpp"
#include "pipelines/friction/driver_figures.hpp"

namespace planfirst::friction {
namespace {

struct Row {
  std::int64_t line = 0;  // CSV data row, 1 = first after the header
  std::int64_t rank = 0;
  std::string lens;
  std::string id;
  std::string label;
  std::int64_t contacts = 0;
  double share = 0;
  double repeat_rate = 0;
  double avg_handle_minutes = 0;
  double transfer_rate = 0;
  double resolution_rate = 0;
  double score = 0;
};

struct Metric {
  std::vector<std::string> words;
  std::string name;
  double Row::*field;
};

bool has_word(const std::vector<std::string>& words, std::string_view prefix) {
  return std::any_of(words.begin(), words.end(),
                     [&](const std::string& w) { return w.rfind(prefix, 0) == 0; });
}

core::Result<std::vector<Row>> read_rows(const std::filesystem::path& csv) {
  if (!std::filesystem::exists(csv)) return core::not_found("the drivers file is missing", csv.string());
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
  if (!db) return db.error();
  core::Result<data::QueryResult> result = (*db)->query(
      "SELECT rank::BIGINT, lens, driver_id, driver, contacts::BIGINT, share_of_total::DOUBLE, "
      "repeat_rate::DOUBLE, "
      "avg_handle_minutes::DOUBLE, transfer_rate::DOUBLE, resolution_rate::DOUBLE, impact_x_ease::DOUBLE "
      "FROM read_csv(" +
      data::quote_literal(csv.string()) + ", header = true, all_varchar = true) ORDER BY rank::BIGINT");
  if (!result) return result.error();
  std::vector<Row> rows;
  for (std::size_t r = 0; r < result->row_count(); ++r) {
    Row row;
    row.line = static_cast<std::int64_t>(r) + 1;
    row.rank = result->at(r, 0).as_int();
    row.lens = result->at(r, 1).as_text();
    row.id = result->at(r, 2).as_text();
    row.label = result->at(r, 3).as_text();
    row.contacts = result->at(r, 4).as_int();
    row.share = result->at(r, 5).as_double();
    row.repeat_rate = result->at(r, 6).as_double();
    row.avg_handle_minutes = result->at(r, 7).as_double();
    row.transfer_rate = result->at(r, 8).as_double();
    row.resolution_rate = result->at(r, 9).as_double();
    row.score = result->at(r, 10).as_double();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string describe(const Row& row) {
  return fmt::format(
      "{} ({}): {} contacts, {} of all contacts, repeat rate {}, average handle {:.1f} min, transfer rate "
      "{}, "
      "resolution rate {}, Impact x Ease {:.1f} (rank {})",
      row.label, row.lens, core::format_integer(row.contacts, 1000), percent(row.share),
      percent(row.repeat_rate), row.avg_handle_minutes, percent(row.transfer_rate),
      percent(row.resolution_rate), row.score, row.rank);
}

// Drivers whose label or id words the question uses (two, or one that is not a common word).
std::vector<const Row*> named_drivers(const std::vector<Row>& rows,
                                      const std::vector<std::string>& question) {
  std::vector<const Row*> found;
  for (const Row& row : rows) {
    std::vector<std::string> name = core::tokenize(row.label + " " + row.id);
    std::sort(name.begin(), name.end());
    name.erase(std::unique(name.begin(), name.end()), name.end());
    int hits = 0;
    for (const std::string& w : name) {
      if (w.size() >= 4 && std::find(question.begin(), question.end(), w) != question.end()) ++hits;
    }
    if (hits > 0) found.push_back(&row);
  }
  return found;
}

std::string cite(const std::vector<const Row*>& used, const std::filesystem::path& csv,
                 const std::filesystem::path& report) {
  std::vector<std::string> lines;
  for (const Row* row : used) lines.push_back(std::to_string(row->line));
  return "Source: " + csv.string() + " (row" + (lines.size() == 1 ? " " : "s ") + core::join(lines) +
         "); report: " + report.string() + ".";
}

}  // namespace

core::Result<QaAnswer> answer_question(std::string_view question, const std::filesystem::path& drivers_csv,
                                       const std::filesystem::path& report) {
  core::Result<std::vector<Row>> rows = read_rows(drivers_csv);
  if (!rows) return rows.error();
  if (rows->empty()) return QaAnswer{"The analysis found no driver. Source: " + drivers_csv.string() + "."};
  const std::vector<std::string> words = core::tokenize(question);

  std::vector<const Row*> used = named_drivers(*rows, words);
  if (!used.empty()) {
    std::vector<std::string> lines;
    for (const Row* row : used) lines.push_back(describe(*row));
    return QaAnswer{core::join(lines, ". ") + ". " + cite(used, drivers_csv, report)};
  }

  for (const Row& row : *rows) {
    if (!has_word(words, row.lens)) continue;
    std::vector<const Row*> lens_rows;
    std::int64_t contacts = 0;
    double share = 0;
    for (const Row& r : *rows) {
      if (r.lens != row.lens) continue;
      lens_rows.push_back(&r);
      contacts += r.contacts;
      share += r.share;
    }
    std::vector<std::string> lines;
    for (const Row* r : lens_rows) lines.push_back(describe(*r));
    return QaAnswer{fmt::format("The {} lens holds {} contacts ({} of all contacts) in {} drivers: {}. {}",
                                row.lens, core::format_integer(contacts, 1000), percent(share),
                                lens_rows.size(), core::join(lines, "; "),
                                cite(lens_rows, drivers_csv, report))};
  }

  const std::vector<Metric> metrics = {
      {{"repeat"}, "repeat rate", &Row::repeat_rate},
      {{"transfer"}, "transfer rate", &Row::transfer_rate},
      {{"handle", "aht", "longest", "duration"}, "average handle time", &Row::avg_handle_minutes},
      {{"resolution", "resolved", "resolve"}, "resolution rate", &Row::resolution_rate},
      {{"share", "volume", "contacts", "common", "frequent"}, "share of contacts", &Row::share},
  };
  for (const Metric& metric : metrics) {
    if (!std::any_of(metric.words.begin(), metric.words.end(),
                     [&](const std::string& w) { return has_word(words, w); })) {
      continue;
    }
    const bool lowest = has_word(words, "lowest") || has_word(words, "least") || has_word(words, "worst");
    std::vector<const Row*> sorted;
    for (const Row& r : *rows) sorted.push_back(&r);
    std::stable_sort(sorted.begin(), sorted.end(), [&](const Row* a, const Row* b) {
      return lowest ? a->*metric.field < b->*metric.field : a->*metric.field > b->*metric.field;
    });
    sorted.resize(std::min<std::size_t>(3, sorted.size()));
    std::vector<std::string> lines;
    for (const Row* r : sorted) lines.push_back(describe(*r));
    return QaAnswer{std::string(lowest ? "Lowest " : "Highest ") + metric.name + ": " +
                    core::join(lines, "; ") + ". " + cite(sorted, drivers_csv, report)};
  }

  std::vector<const Row*> top;
  for (std::size_t i = 0; i < rows->size() && i < 3; ++i) top.push_back(&(*rows)[i]);
  std::vector<std::string> lines;
  for (const Row* r : top) lines.push_back(describe(*r));
  return QaAnswer{"The top drivers by Impact x Ease: " + core::join(lines, "; ") + ". " +
                  cite(top, drivers_csv, report)};
}

}  // namespace planfirst::friction
