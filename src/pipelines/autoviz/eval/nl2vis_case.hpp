// Nl2visCase is one record of an NL2VIS benchmark file (JSON Lines, nvBench fields): the question,
// the table's CSV, the target as a ChartSpec and the target's rendered rows. load_nl2vis_cases
// reads a whole file; an error names the file, the line and the field at fault. paraphrase_cases
// turns the other phrasings into cases; split_by_database puts each database in one of two halves.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/eval/chart_spec.hpp"

namespace planfirst::autoviz {

struct Nl2visCase {
  std::string id;
  std::string db_id;
  std::string half;  // "A" or "B" once split_by_database ran: every case of a database in the same one
  std::string question;
  std::vector<std::string> paraphrases;  // other phrasings of the same question, same target
  std::filesystem::path table_csv;       // resolved against the file's folder
  std::string hardness;                  // Easy, Medium, Hard, Extra Hard
  std::string nvbench_chart;  // bar, pie, line, scatter, stacked_bar, grouping_line, grouping_scatter
  ChartSpec target;
  std::string filter_error;  // non-empty when the target's WHERE/HAVING cannot be read as atoms
  core::Json expected_rows;  // [[x, y(, color)], ...]
  bool zero_filled = false;  // rows with y = 0 in expected_rows are optional
};

// One line of such a file; `folder` is where table_csv paths are relative to. An error names the
// field at fault in `where` (empty when the line is no JSON object).
core::Result<Nl2visCase> parse_nl2vis_record(std::string_view line, const std::filesystem::path& folder);
core::Result<std::vector<Nl2visCase>> load_nl2vis_cases(const std::filesystem::path& file);

// Every paraphrase of `cases` as a case of its own, with the same target; ids are "<id>#<k>"
// (k from 1), in file order. A check for rules that only fit the chosen phrasing.
std::vector<Nl2visCase> paraphrase_cases(const std::vector<Nl2visCase>& cases);

// Splits `cases` in two halves by database, so that a rule tuned on one half can be checked on
// databases it never saw: the distinct db_ids sorted by byte, those at even positions (first,
// third, ...) in half "A", the others in "B". Sets each case's `half`; returns the db_ids of each
// half, sorted. Depends only on the set of db_ids, never on the order of the cases.
struct DatabaseSplit {
  std::vector<std::string> a, b;
};
DatabaseSplit split_by_database(std::vector<Nl2visCase>& cases);

}  // namespace planfirst::autoviz
