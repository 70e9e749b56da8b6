#include "server/examples.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

namespace planfirst::server {
namespace {

constexpr std::array<std::string_view, 6> kDatasetExtensions{".csv",   ".tsv",     ".json",
                                                             ".jsonl", ".parquet", ".duckdb"};

bool dataset_file_name(const std::string& name) {
  const bool plain =
      !name.empty() && name.front() != '.' && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
      });
  const std::string extension = std::filesystem::path(name).extension().string();
  return plain && std::find(kDatasetExtensions.begin(), kDatasetExtensions.end(), extension) !=
                      kDatasetExtensions.end();
}

// Sets `available` and `bytes` from the folder's file of that name.
void look_up(Example& example, const std::filesystem::path& folder) {
  std::error_code error;
  if (folder.empty()) return;
  const std::filesystem::path file = folder / example.name;
  example.available = std::filesystem::is_regular_file(file, error);
  if (example.available) example.bytes = std::filesystem::file_size(file, error);
}

}  // namespace

core::Json Example::to_json() const {
  core::Json json{{"name", name}, {"available", available}};
  if (!assistant_id.empty()) json["assistant_id"] = assistant_id;
  if (!description.empty()) json["description"] = description;
  if (available) json["bytes"] = bytes;
  if (!available && !how_to_get.empty()) json["how_to_get"] = how_to_get;
  return json;
}

core::Result<std::vector<Example>> bundled_examples(const core::AssetStore& assets,
                                                    const std::filesystem::path& folder) {
  core::Result<std::string> text = assets.read(kExamplesAsset);
  if (!text) return text.error();
  const core::Json catalogue = core::Json::parse(*text, nullptr, false);
  if (catalogue.is_discarded() || !catalogue.contains("examples") || !catalogue["examples"].is_array())
    return core::invalid_argument("expected {\"examples\": [...]}", kExamplesAsset);
  std::vector<Example> examples;
  for (std::size_t i = 0; i < catalogue["examples"].size(); ++i) {
    const core::Json& entry = catalogue["examples"][i];
    if (!entry.is_object() || !entry.contains("name") || !entry["name"].is_string() ||
        !dataset_file_name(entry["name"].get<std::string>())) {
      return core::invalid_argument("an example needs the name of a dataset file",
                                    std::string(kExamplesAsset) + "#/examples/" + std::to_string(i));
    }
    Example example;
    example.name = entry["name"];
    example.assistant_id = entry.value("assistant_id", "");
    example.description = entry.value("description", "");
    example.how_to_get = entry.value("how_to_get", "");
    look_up(example, folder);
    examples.push_back(std::move(example));
  }
  std::error_code error;
  std::vector<Example> others;
  if (!folder.empty() && std::filesystem::is_directory(folder, error)) {
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
      const std::string name = entry.path().filename().string();
      const bool listed = std::any_of(examples.begin(), examples.end(),
                                      [&](const Example& example) { return example.name == name; });
      if (listed || !dataset_file_name(name)) continue;
      Example example;
      example.name = name;
      look_up(example, folder);
      if (example.available) others.push_back(std::move(example));
    }
  }
  std::sort(others.begin(), others.end(), [](const Example& a, const Example& b) { return a.name < b.name; });
  examples.insert(examples.end(), others.begin(), others.end());
  return examples;
}

}  // namespace planfirst::server
