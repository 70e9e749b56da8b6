#include "llm/prompt_template.hpp"

#include <algorithm>
#include <kainjow/mustache.hpp>
#include <set>

namespace planfirst::llm {
namespace {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

std::size_t line_of(std::string_view text, std::size_t offset) {
  return 1 + static_cast<std::size_t>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

bool is_identifier(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
}

struct Tag {
  std::string name;
  std::size_t offset;
};

// Every variable or section tag of a Mustache body; kInvalidArgument for tags this layer does not
// allow (partials, delimiter changes) or that never close.
core::Result<std::vector<Tag>> scan_tags(std::string_view body, std::string_view origin,
                                         std::size_t line_offset) {
  std::vector<Tag> tags;
  std::size_t pos = 0;
  while ((pos = body.find("{{", pos)) != std::string_view::npos) {
    const bool triple = body.substr(pos, 3) == "{{{";
    const std::string_view close = triple ? "}}}" : "}}";
    const std::size_t inner = pos + (triple ? 3 : 2);
    const std::size_t end = body.find(close, inner);
    const std::string where =
        std::string(origin) + ":" + std::to_string(line_offset + line_of(body, pos) - 1);
    if (end == std::string_view::npos) return core::invalid_argument("unclosed Mustache tag", where);
    std::string_view content = body.substr(inner, end - inner);
    char sigil = content.empty() ? '\0' : content.front();
    if (!triple && (sigil == '!')) {
      pos = end + close.size();
      continue;
    }
    if (!triple && (sigil == '>' || sigil == '=')) {
      return core::invalid_argument("partials and delimiter changes are not supported in prompts", where);
    }
    if (!triple && (sigil == '#' || sigil == '^' || sigil == '/' || sigil == '&')) content.remove_prefix(1);
    const std::string name = trim(content);
    if (!is_identifier(name)) {
      return core::invalid_argument("Mustache tag \"" +
                                        std::string(body.substr(pos, end + close.size() - pos)) +
                                        "\" does not name a variable",
                                    where);
    }
    tags.push_back({name, pos});
    pos = end + close.size();
  }
  return tags;
}

}  // namespace

core::Result<PromptTemplate> PromptTemplate::parse(std::string_view text, std::string_view origin) {
  PromptTemplate out;
  out.origin_ = std::string(origin);
  const std::string where_top = std::string(origin) + ":1";
  if (text.substr(0, 4) != "---\n" && text.substr(0, 5) != "---\r\n") {
    return core::invalid_argument("a prompt starts with front matter between --- lines", where_top);
  }
  std::size_t pos = text.find('\n') + 1;
  std::size_t line = 2;
  bool closed = false;
  bool has_variables = false;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string content = trim(text.substr(pos, end - pos));
    const std::string where = std::string(origin) + ":" + std::to_string(line);
    pos = end + 1;
    ++line;
    if (content == "---") {
      closed = true;
      break;
    }
    if (content.empty() || content.front() == '#') continue;
    const std::size_t colon = content.find(':');
    if (colon == std::string::npos) return core::invalid_argument("expected \"key: value\"", where);
    const std::string key = trim(std::string_view(content).substr(0, colon));
    std::string value = trim(std::string_view(content).substr(colon + 1));
    if (key == "name") {
      out.name_ = value;
    } else if (key == "contract") {
      out.contract_ = value;
    } else if (key == "description") {
      // for readers only
    } else if (key == "variables") {
      has_variables = true;
      if (value.size() >= 2 && value.front() == '[' && value.back() == ']')
        value = value.substr(1, value.size() - 2);
      std::size_t start = 0;
      while (start <= value.size()) {
        std::size_t comma = value.find(',', start);
        if (comma == std::string::npos) comma = value.size();
        const std::string variable = trim(std::string_view(value).substr(start, comma - start));
        if (!variable.empty()) {
          if (!is_identifier(variable))
            return core::invalid_argument("bad variable name \"" + variable + "\"", where);
          if (std::find(out.variables_.begin(), out.variables_.end(), variable) != out.variables_.end()) {
            return core::invalid_argument("variable \"" + variable + "\" is declared twice", where);
          }
          out.variables_.push_back(variable);
        }
        start = comma + 1;
      }
    } else {
      return core::invalid_argument(
          "unknown front matter key \"" + key + "\" (name, contract, variables, description)", where);
    }
  }
  if (!closed) return core::invalid_argument("front matter is not closed by a --- line", where_top);
  if (out.name_.empty()) return core::invalid_argument("front matter has no name", where_top);
  if (!has_variables)
    return core::invalid_argument("front matter has no variables line (it may be empty)", where_top);
  const std::size_t body_line = line;
  out.body_ = pos < text.size() ? std::string(text.substr(pos)) : std::string();

  core::Result<std::vector<Tag>> tags = scan_tags(out.body_, origin, body_line);
  if (!tags) return tags.error();
  for (const Tag& tag : *tags) {
    if (std::find(out.variables_.begin(), out.variables_.end(), tag.name) == out.variables_.end()) {
      return core::invalid_argument(
          "template uses undeclared variable \"" + tag.name + "\"",
          std::string(origin) + ":" + std::to_string(body_line + line_of(out.body_, tag.offset) - 1));
    }
  }
  kainjow::mustache::mustache compiled(out.body_);
  if (!compiled.is_valid()) {
    return core::invalid_argument("invalid Mustache: " + compiled.error_message(), std::string(origin));
  }
  return out;
}

core::Result<std::string> PromptTemplate::render(const PromptVariables& values) const {
  std::vector<std::string> problems;
  for (const std::string& variable : variables_) {
    if (values.find(variable) == values.end()) problems.push_back("missing variable \"" + variable + "\"");
  }
  for (const auto& [name, value] : values) {
    if (std::find(variables_.begin(), variables_.end(), name) == variables_.end()) {
      problems.push_back("unknown variable \"" + name + "\"");
    }
  }
  if (!problems.empty()) {
    std::string message = "prompt " + name_ + ": ";
    for (std::size_t i = 0; i < problems.size(); ++i) message += (i ? "; " : "") + problems[i];
    message += " (declared: ";
    for (std::size_t i = 0; i < variables_.size(); ++i) message += (i ? ", " : "") + variables_[i];
    message += ")";
    return core::invalid_argument(message, origin_);
  }
  kainjow::mustache::mustache compiled(body_);
  compiled.set_custom_escape([](const std::string& text) { return text; });
  kainjow::mustache::data data;
  for (const auto& [name, value] : values) data.set(name, value);
  std::string out = compiled.render(data);
  if (!compiled.is_valid()) {
    return core::invalid_argument("prompt " + name_ + ": " + compiled.error_message(), origin_);
  }
  return out;
}

std::vector<std::string> PromptTemplate::examples() const {
  std::vector<std::string> out;
  std::size_t pos = 0;
  const std::string open = "```json\n";
  while ((pos = body_.find(open, pos)) != std::string::npos) {
    const std::size_t start = pos + open.size();
    const std::size_t end = body_.find("\n```", start);
    if (end == std::string::npos) break;
    out.push_back(body_.substr(start, end - start));
    pos = end + 4;
  }
  return out;
}

}  // namespace planfirst::llm
