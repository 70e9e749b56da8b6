// The configuration users copy must be the configuration the loader accepts: examples/planfirst.toml
// as shipped and with every key uncommented, and every ```toml block in README.md.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/file_text.hpp"

namespace planfirst::core {
namespace {

const std::string kExample = std::string(PLANFIRST_SOURCE_DIR) + "/examples/planfirst.toml";
const std::string kReadme = std::string(PLANFIRST_SOURCE_DIR) + "/README.md";

std::string text_of(const std::string& path) {
  Result<std::string> text = read_file_text(path);
  if (!text) ADD_FAILURE() << text.error().describe();
  return text ? *text : std::string();
}

// The example with "#key = value" lines turned into "key = value"; prose comments ("# ...") stay.
std::string uncommented(const std::string& toml) {
  std::istringstream lines(toml);
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    const bool setting = line.size() > 1 && line[0] == '#' && line[1] >= 'a' && line[1] <= 'z';
    out += (setting ? line.substr(1) : line) + "\n";
  }
  return out;
}

bool is_server_key(const std::string& key) {
  return key.starts_with("llm.") || key.starts_with("embed.");
}

struct TomlBlock {
  int line = 0;  // of the opening fence
  std::string text;
};

std::vector<TomlBlock> toml_blocks(const std::string& markdown) {
  std::istringstream lines(markdown);
  std::vector<TomlBlock> blocks;
  bool inside = false;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!inside && line == "```toml") {
      blocks.push_back({number, ""});
      inside = true;
    } else if (inside && line.starts_with("```")) {
      inside = false;
    } else if (inside) {
      blocks.back().text += line + "\n";
    }
  }
  return blocks;
}

TEST(ExampleConfig, LoadsAsShippedAndChangesNoDefault) {
  Result<Config> config = Config::load(kExample, {});

  ASSERT_TRUE(config) << config.error().describe();
  for (const ConfigEntry& entry : config->entries()) EXPECT_EQ(entry.source, "default") << entry.key;
}

TEST(ExampleConfig, UncommentedSetsEveryLlmAndEmbedKey) {
  Config config;

  Result<void> merged = config.merge_toml(uncommented(text_of(kExample)), kExample);

  ASSERT_TRUE(merged) << merged.error().describe();
  int server_keys = 0;
  for (const ConfigEntry& entry : config.entries()) {
    if (!is_server_key(entry.key)) continue;
    ++server_keys;
    EXPECT_TRUE(entry.source.starts_with(kExample + ":")) << entry.key << " is not in the example";
  }
  EXPECT_EQ(server_keys, 10);
  EXPECT_EQ(config.get_string("embed.model"), "bge-small-en");
}

TEST(ReadmeConfig, EveryTomlBlockLoads) {
  const std::vector<TomlBlock> blocks = toml_blocks(text_of(kReadme));

  ASSERT_GE(blocks.size(), 3u) << "the vLLM, llama.cpp and Ollama settings";
  for (const TomlBlock& block : blocks) {
    Config config;
    Result<void> merged = config.merge_toml(block.text, "README.md:" + std::to_string(block.line));
    EXPECT_TRUE(merged) << merged.error().describe();
  }
}

}  // namespace
}  // namespace planfirst::core
