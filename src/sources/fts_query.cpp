#include "sources/fts_query.hpp"

#include "core/asset_store.hpp"
#include "core/registry_yaml.hpp"
#include "core/tokenizer.hpp"

namespace planfirst::sources {
namespace {

constexpr std::string_view kAsset = "sources/document_search.yaml";

// An FTS5 string: double quotes around, an embedded quote doubled.
std::string fts_string(std::string_view word) {
  std::string out = "\"";
  for (const char c : word) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

}  // namespace

core::Result<FtsQueryBuilder> FtsQueryBuilder::load(const core::AssetStore& assets) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, kAsset);
  if (!yaml) return yaml.error();
  return yaml->guarded<FtsQueryBuilder>([&]() -> core::Result<FtsQueryBuilder> {
    core::Result<YAML::Node> words = yaml->sequence(yaml->root(), "stop_words", "document search");
    if (!words) return words.error();
    std::set<std::string, std::less<>> stop_words;
    for (const YAML::Node& word : *words) stop_words.insert(word.as<std::string>());
    const YAML::Node max_terms_node = core::yaml_child(yaml->root(), "max_terms");
    const std::size_t max_terms = max_terms_node ? max_terms_node.as<std::size_t>() : 24;
    if (max_terms == 0) return yaml->fault(max_terms_node, "document search", "'max_terms' must be positive");
    return FtsQueryBuilder(std::move(stop_words), max_terms);
  });
}

FtsQueryBuilder::FtsQueryBuilder(std::set<std::string, std::less<>> stop_words, std::size_t max_terms)
    : stop_words_(std::move(stop_words)), max_terms_(max_terms) {}

std::vector<std::string> FtsQueryBuilder::terms(std::string_view question) const {
  std::vector<std::string> out;
  std::set<std::string, std::less<>> seen;
  for (std::string& word : core::tokenize(question)) {
    if (out.size() == max_terms_) break;
    if (stop_words_.contains(word) || !seen.insert(word).second) continue;
    out.push_back(std::move(word));
  }
  return out;
}

std::string FtsQueryBuilder::term_query(std::string_view word) {
  return fts_string(word);
}

std::string FtsQueryBuilder::build(std::string_view question) const {
  std::string query;
  for (const std::string& word : terms(question)) {
    if (!query.empty()) query += " OR ";
    query += fts_string(word);
  }
  return query;
}

}  // namespace planfirst::sources
