#include "llm/prompt_library.hpp"

namespace planfirst::llm {

core::Result<PromptLibrary> PromptLibrary::load(const core::AssetStore& assets) {
  PromptLibrary library;
  for (const std::string& path : assets.list("prompts/")) {
    if (path.size() < 3 || path.substr(path.size() - 3) != ".md") continue;
    core::Result<std::string> text = assets.read(path);
    if (!text) return text.error();
    core::Result<PromptTemplate> parsed = PromptTemplate::parse(*text, assets.origin(path));
    if (!parsed) return parsed.error();
    const std::string name = parsed->name();
    if (library.templates_.count(name) != 0) {
      return core::invalid_argument("a second prompt is named \"" + name + "\"", assets.origin(path));
    }
    library.templates_.emplace(name, std::move(*parsed));
  }
  return library;
}

std::vector<std::string> PromptLibrary::names() const {
  std::vector<std::string> out;
  for (const auto& [name, unused] : templates_) out.push_back(name);
  return out;
}

core::Result<const PromptTemplate*> PromptLibrary::get(std::string_view name) const {
  auto it = templates_.find(name);
  if (it != templates_.end()) return &it->second;
  std::string known;
  for (const auto& [key, unused] : templates_) known += (known.empty() ? "" : ", ") + key;
  return core::not_found("no prompt named \"" + std::string(name) + "\" (known: " + known + ")", "prompts/");
}

core::Result<std::string> PromptLibrary::render(std::string_view name, const PromptVariables& values) const {
  core::Result<const PromptTemplate*> found = get(name);
  if (!found) return found.error();
  return (*found)->render(values);
}

}  // namespace planfirst::llm
