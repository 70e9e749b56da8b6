#include "data/table_loader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <optional>
#include <vector>

#include "core/ascii_case.hpp"
#include "core/utf8.hpp"
#include "data/duckdb_database.hpp"
#include "data/grouped_numbers.hpp"
#include "data/sql_quoting.hpp"

namespace planfirst::data {
namespace {

using core::Error;
using core::Result;

constexpr std::size_t kMaxQuotedLine = 200;

// The lines of `text`, without their line breaks.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

// DuckDB's message without the SQL it quotes ("LINE 1: CREATE TABLE ...") and the trailing blanks.
std::string without_sql_context(const std::string& message) {
  std::string text = message.substr(0, message.find("\nLINE 1:"));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

struct HeaderLine {
  std::optional<char> delimiter;  // the most frequent of , \t ; | outside quotes, if any occurs
  std::size_t fields = 1;         // fields the header splits into with that delimiter
};

// Guesses the delimiter from the first line of a plain-text file; a compressed file gets none.
HeaderLine read_header_line(const std::filesystem::path& path) {
  HeaderLine header;
  if (core::ascii_lower(path.extension().string()) == ".gz") return header;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::getline(in, line);
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  std::array<std::size_t, 4> counts{};
  constexpr std::array<char, 4> kCandidates{',', '\t', ';', '|'};
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    for (std::size_t i = 0; i < kCandidates.size(); ++i) {
      if (c == kCandidates[i]) ++counts[i];
    }
  }
  const auto best = std::max_element(counts.begin(), counts.end());
  if (*best > 0) {
    header.delimiter = kCandidates[static_cast<std::size_t>(best - counts.begin())];
    header.fields = *best + 1;
  }
  return header;
}

std::string delimiter_literal(char delimiter) {
  return delimiter == '\t' ? "'\\t'" : quote_literal(std::string(1, delimiter));
}

// Turns DuckDB's "CSV Error on Line: N" report into an error naming the file and the line; nullopt
// when the message reports no line.
std::optional<Error> csv_line_error(const std::string& message, const std::filesystem::path& path) {
  static constexpr std::string_view kMarker = "CSV Error on Line: ";
  const std::size_t at = message.find(kMarker);
  if (at == std::string::npos) return std::nullopt;
  std::size_t digits_end = at + kMarker.size();
  while (digits_end < message.size() && std::isdigit(static_cast<unsigned char>(message[digits_end])))
    ++digits_end;
  const std::string line_number = message.substr(at + kMarker.size(), digits_end - at - kMarker.size());
  if (line_number.empty()) return std::nullopt;

  const std::vector<std::string> lines = lines_of(message.substr(at));
  std::string original;
  std::string problem;
  static constexpr std::array<std::string_view, 6> kProblems{"Expected Number of Columns",
                                                             "Value with unterminated quote",
                                                             "Error when converting column",
                                                             "Invalid unicode",
                                                             "Maximum line size",
                                                             "Value with an unquoted"};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("Original Line: ") && original.empty()) original = lines[i].substr(15);
    for (std::string_view known : kProblems) {
      if (problem.empty() && lines[i].starts_with(known)) problem = lines[i];
    }
  }
  if (problem.empty() && lines.size() > 2) problem = lines[2];  // the line after "Original Line:"
  while (!problem.empty() && (problem.back() == ' ' || problem.back() == '.')) problem.pop_back();
  if (original.size() > kMaxQuotedLine) original = original.substr(0, kMaxQuotedLine) + "...";

  std::string text =
      "malformed CSV on line " + line_number + ": " + (problem.empty() ? "DuckDB cannot parse it" : problem);
  if (!original.empty()) text += " (the line reads: " + original + ")";
  return core::invalid_argument(std::move(text), path.string() + ":" + line_number);
}

// The first line of the file that is not UTF-8, quoted with its bad bytes as \xNN, and how to
// re-encode the file; nullopt when every line is UTF-8 (or the file is compressed).
std::optional<Error> non_utf8_line_error(const std::filesystem::path& path) {
  if (core::ascii_lower(path.extension().string()) == ".gz") return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::optional<std::size_t> bad = core::first_invalid_utf8(line);
    if (!bad) continue;
    std::string quoted = core::escape_invalid_utf8(line);
    if (quoted.size() > kMaxQuotedLine) quoted = quoted.substr(0, kMaxQuotedLine) + "...";
    return core::invalid_argument(
        "line " + std::to_string(number) + " is not UTF-8 (byte " + std::to_string(*bad + 1) +
            " of the line): " + quoted +
            "; planfirst reads UTF-8: re-encode the file, e.g. iconv -f latin1 -t utf-8 " +
            path.filename().string() + " > utf8-" + path.filename().string(),
        path.string() + ":" + std::to_string(number));
  }
  return std::nullopt;
}

// A field that is empty or reads NULL (as SQL dumps write a missing value) is a missing value, so a
// column of numbers with gaps written NULL stays a column of numbers.
std::string csv_reader(const std::filesystem::path& path, const HeaderLine& header) {
  std::string reader =
      "read_csv(" + quote_literal(path.string()) + ", quote = '\"', skip = 0, nullstr = ['', 'NULL']";
  if (header.delimiter) reader += ", delim = " + delimiter_literal(*header.delimiter);
  return reader + ")";
}

// Reads the file strictly (RFC 4180 quoting, header line, every column text) to find the line the
// sniffer stumbled on. Returns the line error, or nullopt when the strict read finds none.
std::optional<Error> strict_csv_error(DuckDbDatabase& db, const std::filesystem::path& path,
                                      const HeaderLine& header) {
  if (!header.delimiter) return std::nullopt;
  std::string columns = "{";
  for (std::size_t i = 0; i < header.fields; ++i) {
    columns += (i > 0 ? ", " : "") + quote_literal("c" + std::to_string(i)) + ": 'VARCHAR'";
  }
  columns += "}";
  const std::string sql =
      "SELECT count(*) FROM read_csv(" + quote_literal(path.string()) +
      ", auto_detect = false, header = true, delim = " + delimiter_literal(*header.delimiter) +
      ", quote = '\"', escape = '\"', columns = " + columns + ")";
  Result<QueryResult> strict = db.query(sql);
  if (strict) return std::nullopt;
  return csv_line_error(strict.error().message, path);
}

Result<void> load_csv(DuckDbDatabase& db, const std::filesystem::path& path, std::string_view table_name) {
  const HeaderLine header = read_header_line(path);
  Result<void> loaded = db.exec("CREATE TABLE " + quote_identifier(table_name) + " AS SELECT * FROM " +
                                csv_reader(path, header));
  if (loaded) {
    Result<void> numbers = read_grouped_numbers(db, table_name, header.delimiter);
    if (!numbers) return Error{numbers.error().code, numbers.error().message, path.string()};
    return numbers;
  }
  const std::string message = without_sql_context(loaded.error().message);
  if (message.find("Invalid unicode") != std::string::npos) {
    if (std::optional<Error> line_error = non_utf8_line_error(path)) return *line_error;
  }
  if (std::optional<Error> line_error = csv_line_error(message, path)) return *line_error;
  if (message.find("Error when sniffing file") != std::string::npos) {
    if (std::optional<Error> line_error = strict_csv_error(db, path, header)) return *line_error;
    return core::invalid_argument(
        "DuckDB cannot work out the CSV layout: " + message.substr(0, message.find('\n')), path.string());
  }
  return Error{loaded.error().code, message, path.string()};
}

}  // namespace

Result<FileFormat> file_format(const std::filesystem::path& path) {
  std::string name = core::ascii_lower(path.filename().string());
  if (name.ends_with(".gz")) name.resize(name.size() - 3);
  const std::string extension = std::filesystem::path(name).extension().string();
  if (extension == ".csv" || extension == ".tsv") return FileFormat::kCsv;
  if (extension == ".parquet") return FileFormat::kParquet;
  if (extension == ".json" || extension == ".jsonl" || extension == ".ndjson") return FileFormat::kJson;
  return core::invalid_argument("unsupported file type \"" + extension +
                                    "\"; planfirst loads .csv, .tsv, .parquet, .json, .jsonl and .ndjson "
                                    "(optionally .gz)",
                                path.string());
}

std::string table_name_for(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  if (core::ascii_lower(name).ends_with(".gz")) name.resize(name.size() - 3);
  name = std::filesystem::path(name).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  }
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) name = "t_" + name;
  return name;
}

Result<void> load_table(DuckDbDatabase& db, const std::filesystem::path& path, std::string_view table_name) {
  Result<FileFormat> format = file_format(path);
  if (!format) return format.error();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return core::not_found("file not found: " + path.string(), path.string());
  if (!std::filesystem::is_regular_file(path, ec)) {
    return core::invalid_argument("not a regular file: " + path.string(), path.string());
  }
  if (std::filesystem::file_size(path, ec) == 0 && !ec) {
    return core::invalid_argument("the file is empty: it holds no header and no rows", path.string());
  }
  if (*format == FileFormat::kCsv) return load_csv(db, path, table_name);

  const std::string reader = *format == FileFormat::kParquet ? "read_parquet" : "read_json_auto";
  Result<void> loaded = db.exec("CREATE TABLE " + quote_identifier(table_name) + " AS SELECT * FROM " +
                                reader + "(" + quote_literal(path.string()) + ")");
  if (loaded) return loaded;
  return Error{loaded.error().code, without_sql_context(loaded.error().message), path.string()};
}

}  // namespace planfirst::data
