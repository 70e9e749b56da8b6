#include "sources/document_sections.hpp"

#include <optional>

#include "core/trim.hpp"

namespace planfirst::sources {
namespace {

struct Heading {
  std::size_t level;
  std::string text;
};

// "## Hotfixes ##" -> {2, "Hotfixes"}; nullopt for anything else (up to 3 spaces of indent, as CommonMark).
std::optional<Heading> heading_of(std::string_view line) {
  std::size_t at = 0;
  while (at < line.size() && at < 3 && line[at] == ' ') ++at;
  std::size_t level = 0;
  while (at + level < line.size() && line[at + level] == '#') ++level;
  if (level == 0 || level > 6) return std::nullopt;
  std::string_view rest = line.substr(at + level);
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '\t' && rest.front() != '\r')
    return std::nullopt;
  rest = core::trim(rest);
  const auto closing = rest.find_last_not_of('#');
  if (closing != std::string_view::npos && closing + 1 < rest.size() &&
      (rest[closing] == ' ' || rest[closing] == '\t')) {
    rest = core::trim(rest.substr(0, closing + 1));
  } else if (closing == std::string_view::npos) {
    rest = {};
  }
  return Heading{level, std::string(rest)};
}

bool is_fence(std::string_view line) {
  const std::string_view t = core::trim(line);
  return t.starts_with("```") || t.starts_with("~~~");
}

std::string file_title(std::string_view file) {
  const auto slash = file.find_last_of('/');
  return std::string(slash == std::string_view::npos ? file : file.substr(slash + 1));
}

}  // namespace

std::vector<DocumentSection> split_into_sections(std::string_view file, std::string_view text) {
  const bool markdown = file.ends_with(".md") || file.ends_with(".markdown");
  std::vector<DocumentSection> sections;
  std::vector<std::string> path;  // path[i] = heading at level i+1, "" where a level is skipped
  DocumentSection current{std::string(file), file_title(file), file_title(file), 1, 0, {}};
  std::string body;
  auto flush = [&](std::size_t last_line) {
    current.last_line = last_line;
    current.body = std::string(core::trim(body));
    body.clear();
    if (!current.body.empty()) sections.push_back(current);
  };
  bool in_fence = false;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    const std::string_view line =
        text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
    start = end == std::string_view::npos ? text.size() : end + 1;
    ++line_number;
    if (markdown && is_fence(line)) in_fence = !in_fence;
    const std::optional<Heading> heading = markdown && !in_fence ? heading_of(line) : std::nullopt;
    if (!heading) {
      body.append(line).push_back('\n');
      continue;
    }
    flush(line_number - 1);
    path.resize(heading->level - 1);
    path.push_back(heading->text);
    std::string joined;
    for (const std::string& part : path) {
      if (part.empty()) continue;
      if (!joined.empty()) joined += " > ";
      joined += part;
    }
    current = DocumentSection{std::string(file), heading->text, joined, line_number, 0, {}};
  }
  flush(line_number);
  return sections;
}

}  // namespace planfirst::sources
