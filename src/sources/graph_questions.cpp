#include "sources/graph_questions.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include "core/ascii_case.hpp"
#include "core/asset_store.hpp"
#include "core/registry_yaml.hpp"

namespace planfirst::sources {
namespace {

constexpr std::string_view kAsset = "sources/graph_questions.yaml";

bool word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || u >= 0x80 || c == '-' || c == '.' || c == '_';
}

// One word of the question after entity recognition: a plain word, or a placeholder with its id.
struct Token {
  std::string word;       // "depends" or "{component}"
  std::string entity_id;  // set for placeholders
};

bool is_placeholder(std::string_view word) {
  return word.size() > 2 && word.front() == '{' && word.back() == '}';
}

}  // namespace

std::vector<std::string> graph_question_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    while (!word.empty() && (word.back() == '-' || word.back() == '.' || word.back() == '_')) word.pop_back();
    std::size_t start = 0;
    while (start < word.size() && (word[start] == '-' || word[start] == '.' || word[start] == '_')) ++start;
    if (start < word.size()) words.push_back(word.substr(start));
    word.clear();
  };
  for (const char c : text) {
    if (word_byte(c)) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      flush();
    }
  }
  flush();
  return words;
}

core::Result<GraphQuestions> GraphQuestions::load(const core::AssetStore& assets) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, kAsset);
  if (!yaml) return yaml.error();
  return yaml->guarded<GraphQuestions>([&] { return read(*yaml); });
}

core::Result<GraphQuestions> GraphQuestions::read(const core::RegistryYaml& yaml) {
  const YAML::Node& root = yaml.root();
  GraphQuestions registry;
  core::Result<std::vector<std::string>> filler_words =
      yaml.texts(core::yaml_child(root, "filler_words"), "'filler_words'");
  if (!filler_words) return filler_words.error();
  registry.filler_words_ = std::move(*filler_words);
  std::sort(registry.filler_words_.begin(), registry.filler_words_.end());
  const auto filler = [&](const std::string& word) {
    return std::binary_search(registry.filler_words_.begin(), registry.filler_words_.end(), word);
  };
  for (const YAML::Node& entity : core::yaml_child(root, "entities")) {
    core::Result<std::string> type = yaml.scalar(entity, "type", "entity");
    if (!type) return type.error();
    const std::string context = "entity " + *type;
    if (const YAML::Node key_pattern = core::yaml_child(entity, "key_pattern"); key_pattern.IsDefined()) {
      core::Result<std::string> pattern = yaml.optional_scalar(entity, "key_pattern", context);
      if (!pattern) return pattern.error();
      try {
        registry.issue_key_ = std::regex(pattern->empty() ? std::string("$^") : *pattern);
      } catch (const std::regex_error& e) {
        return yaml.fault(key_pattern, context,
                          std::string("key_pattern is no regular expression: ") + e.what());
      }
      continue;
    }
    core::Result<std::string> sql = yaml.optional_scalar(entity, "sql", context);
    if (!sql) return sql.error();
    core::Result<std::string> cypher = yaml.optional_scalar(entity, "cypher", context);
    if (!cypher) return cypher.error();
    if (sql->empty() || cypher->empty()) return yaml.fault(entity, context + " needs sql and cypher");
    registry.entity_queries_.push_back({*type, std::move(*sql), std::move(*cypher)});
  }
  for (const YAML::Node& node : core::yaml_child(root, "questions")) {
    GraphQuestion question;
    core::Result<std::string> id = yaml.scalar(node, "id", "question");
    if (!id) return id.error();
    question.id = std::move(*id);
    const std::string context = "question " + question.id;
    for (auto [field, key] : {std::pair{&question.title, "title"}, std::pair{&question.sql, "sql"},
                              std::pair{&question.cypher, "cypher"}}) {
      core::Result<std::string> value = yaml.scalar(node, key, context);
      if (!value) return value.error();
      *field = std::move(*value);
    }
    for (auto [field, key] :
         {std::pair{&question.description, "description"}, std::pair{&question.entity, "entity"}}) {
      core::Result<std::string> value = yaml.optional_scalar(node, key, context);
      if (!value) return value.error();
      *field = std::move(*value);
    }
    core::Result<std::vector<std::string>> key_columns =
        yaml.texts(core::yaml_child(node, "key_columns"), context + " 'key_columns'");
    if (!key_columns) return key_columns.error();
    question.key_columns = std::move(*key_columns);
    for (const YAML::Node& pattern : core::yaml_child(node, "patterns")) {
      core::Result<std::string> raw = yaml.text(pattern, context + ": a pattern");
      if (!raw) return raw.error();
      std::vector<std::string> words;
      std::size_t start = 0;
      while (start < raw->size()) {
        std::size_t end = raw->find(' ', start);
        if (end == std::string::npos) end = raw->size();
        const std::string piece = raw->substr(start, end - start);
        if (is_placeholder(piece)) {
          if (piece != "{" + question.entity + "}") {
            return yaml.fault(pattern, context,
                              "pattern names " + piece + " but its entity is " +
                                  (question.entity.empty() ? "none" : question.entity));
          }
          words.push_back(piece);
        } else {
          for (std::string& word : graph_question_words(piece)) {
            if (!filler(word)) words.push_back(std::move(word));
          }
        }
        start = end + 1;
      }
      if (words.empty()) return yaml.fault(pattern, context, "an empty pattern");
      question.patterns.push_back(std::move(words));
    }
    if (question.patterns.empty() || question.key_columns.empty()) {
      return yaml.fault(node, context + " needs patterns and key_columns");
    }
    registry.questions_.push_back(std::move(question));
  }
  if (registry.questions_.empty()) return yaml.fault(root, "no questions");
  return registry;
}

const GraphQuestion* GraphQuestions::find(std::string_view id) const {
  for (const GraphQuestion& question : questions_) {
    if (question.id == id) return &question;
  }
  return nullptr;
}

std::optional<GraphMatch> GraphQuestions::match(std::string_view text, const GraphEntities& entities) const {
  // Surface forms of every entity as words, longest first, so "billing engine" wins over "billing".
  struct Form {
    std::vector<std::string> words;
    std::string type;
    std::string id;
  };
  std::vector<Form> forms;
  for (const auto& [type, list] : entities) {
    for (const auto& [id, name] : list) {
      forms.push_back({graph_question_words(id), type, id});
      if (!name.empty()) forms.push_back({graph_question_words(name), type, id});
    }
  }
  std::stable_sort(forms.begin(), forms.end(),
                   [](const Form& a, const Form& b) { return a.words.size() > b.words.size(); });

  const std::vector<std::string> words = graph_question_words(text);
  std::vector<Token> tokens;
  for (std::size_t i = 0; i < words.size();) {
    const Form* found = nullptr;
    for (const Form& form : forms) {
      if (form.words.empty() || i + form.words.size() > words.size()) continue;
      if (std::equal(form.words.begin(), form.words.end(), words.begin() + static_cast<std::ptrdiff_t>(i))) {
        found = &form;
        break;
      }
    }
    if (found != nullptr) {
      tokens.push_back({"{" + found->type + "}", found->id});
      i += found->words.size();
    } else if (std::regex_match(words[i], issue_key_)) {
      tokens.push_back({"{issue}", core::ascii_upper(words[i])});
      ++i;
    } else {
      if (!std::binary_search(filler_words_.begin(), filler_words_.end(), words[i]))
        tokens.push_back({words[i], {}});
      ++i;
    }
  }

  for (const GraphQuestion& question : questions_) {
    for (const std::vector<std::string>& pattern : question.patterns) {
      if (pattern.size() > tokens.size()) continue;
      for (std::size_t at = 0; at + pattern.size() <= tokens.size(); ++at) {
        std::string entity_id;
        bool same = true;
        for (std::size_t k = 0; k < pattern.size() && same; ++k) {
          same = tokens[at + k].word == pattern[k];
          if (same && is_placeholder(pattern[k])) entity_id = tokens[at + k].entity_id;
        }
        if (same) return GraphMatch{&question, entity_id};
      }
    }
  }
  return std::nullopt;
}

std::string GraphQuestions::describe() const {
  std::string out;
  for (const GraphQuestion& question : questions_) {
    if (!out.empty()) out += "; ";
    out += question.id + " (" + question.description + ")";
  }
  return out;
}

}  // namespace planfirst::sources
