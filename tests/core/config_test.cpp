#include "core/config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace planfirst::core {
namespace {

std::filesystem::path write_config(const std::string& name, const std::string& text) {
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / name;
  std::ofstream(path) << text;
  return path;
}

TEST(Config, StartsFromTheDefaults) {
  const Config config;

  EXPECT_EQ(config.get_string("llm.api_key_env"), "PLANFIRST_LLM_API_KEY");
  EXPECT_EQ(config.get_string("llm.structured_output"), "response_format");
  EXPECT_EQ(config.get_int("llm.max_reasks"), 2);
  EXPECT_EQ(config.get_double("llm.timeout_seconds"), 60.0);
  EXPECT_EQ(config.get_string("log.level"), "warn");
}

TEST(Config, FlagsBeatEnvironmentWhichBeatsTheFile) {
  const auto path = write_config(
      "precedence.toml", "[llm]\nbase_url = \"http://file\"\nmodel = \"file-model\"\nmax_reasks = 5\n");
  const Environment env{{"PLANFIRST_LLM_BASE_URL", "http://env"}, {"PLANFIRST_LLM_MODEL", "env-model"}};

  Result<Config> config = Config::load(path, env);
  ASSERT_TRUE(config) << config.error().describe();
  ASSERT_TRUE(config->set_flag("llm.model", "flag-model"));

  EXPECT_EQ(config->get_string("llm.model"), "flag-model");
  EXPECT_EQ(config->get_string("llm.base_url"), "http://env");
  EXPECT_EQ(config->get_int("llm.max_reasks"), 5);
  EXPECT_EQ(config->get_string("embed.model"), "bge-small-en");
}

TEST(Config, RecordsWhereEachValueCameFrom) {
  const auto path = write_config("sources.toml", "[log]\nlevel = \"info\"\n");

  Result<Config> config = Config::load(path, {{"PLANFIRST_LOG_FORMAT", "json"}});
  ASSERT_TRUE(config);
  ASSERT_TRUE(config->set_flag("llm.max_reasks", "0"));

  std::map<std::string, std::string> sources;
  for (const ConfigEntry& entry : config->entries()) sources[entry.key] = entry.source;
  EXPECT_EQ(sources["log.level"], path.string() + ":2");
  EXPECT_EQ(sources["log.format"], "env:PLANFIRST_LOG_FORMAT");
  EXPECT_EQ(sources["llm.max_reasks"], "flag");
  EXPECT_EQ(sources["llm.model"], "default");
}

TEST(Config, NamesTheUnknownKeyAndItsLine) {
  const auto path = write_config("typo.toml", "[llm]\nmodel = \"m\"\nbse_url = \"http://x\"\n");

  Result<Config> config = Config::load(path, {});

  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(config.error().where, path.string() + ":3");
  EXPECT_EQ(config.error().message, "unknown config key 'llm.bse_url' (did you mean 'llm.base_url'?)");
}

TEST(Config, RejectsAnUnknownSection) {
  Config config;

  Result<void> merged = config.merge_toml("[server]\nport = 8080\n", "inline.toml");

  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().message, "unknown config key 'server'");
  EXPECT_EQ(merged.error().where, "inline.toml:1");
}

TEST(Config, RejectsAValueOfTheWrongTypeNamingKeyAndType) {
  Config config;

  Result<void> merged = config.merge_toml("[llm]\n\nmax_reasks = \"two\"\n", "inline.toml");

  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().message, "config key 'llm.max_reasks' must be of type integer; got string");
  EXPECT_EQ(merged.error().where, "inline.toml:3");
}

TEST(Config, RejectsAStructuredOutputModeOutsideItsChoices) {
  Config config;

  Result<void> merged = config.merge_toml("llm.structured_output = \"grammar\"\n", "inline.toml");

  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().message,
            "config key 'llm.structured_output' must be one of response_format, llamacpp, ollama, none; got "
            "'grammar'");
}

TEST(Config, LeavesValuesUntouchedWhenAFileFailsHalfway) {
  Config config;

  Result<void> merged = config.merge_toml("[llm]\nmodel = \"m\"\nmax_reasks = -1\n", "inline.toml");

  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().message, "config key 'llm.max_reasks' must be at least 0; got -1");
  EXPECT_EQ(config.get_string("llm.model"), "");
}

TEST(Config, ReportsTomlSyntaxErrorsWithTheirLine) {
  Config config;

  Result<void> merged = config.merge_toml("[llm]\nmodel = \n", "broken.toml");

  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().where, "broken.toml:2");
}

TEST(Config, RejectsANonFiniteTimeout) {
  Config config;

  Result<void> from_file = config.merge_toml("[llm]\ntimeout_seconds = inf\n", "inline.toml");
  Result<void> from_flag = config.set_flag("llm.timeout_seconds", "nan");

  ASSERT_FALSE(from_file);
  EXPECT_EQ(from_file.error().message, "config key 'llm.timeout_seconds' must be a finite number");
  EXPECT_FALSE(from_flag);
}

TEST(Config, AcceptsAnIntegerWhereAFloatIsExpected) {
  Config config;

  ASSERT_TRUE(config.merge_toml("[llm]\ntimeout_seconds = 5\n", "inline.toml"));

  EXPECT_EQ(config.get_double("llm.timeout_seconds"), 5.0);
}

TEST(Config, ParsesEnvironmentTextByTheKeyType) {
  Config config;

  Result<void> merged = config.merge_environment(
      {{"PLANFIRST_LLM_TIMEOUT_SECONDS", "2.5"}, {"PLANFIRST_LLM_API_KEY", "secret"}});
  Result<void> bad = config.merge_environment({{"PLANFIRST_LLM_MAX_REASKS", "many"}});

  ASSERT_TRUE(merged);
  EXPECT_EQ(config.get_double("llm.timeout_seconds"), 2.5);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().where, "env:PLANFIRST_LLM_MAX_REASKS");
}

TEST(Config, RejectsAnUnknownFlag) {
  Config config;

  Result<void> set = config.set_flag("llm.modle", "x");

  ASSERT_FALSE(set);
  EXPECT_EQ(set.error().message, "unknown config key 'llm.modle' (did you mean 'llm.model'?)");
}

TEST(Config, ReportsAMissingFileAsNotFound) {
  Result<Config> config = Config::load(std::filesystem::path(::testing::TempDir()) / "absent.toml", {});

  ASSERT_FALSE(config);
  EXPECT_EQ(config.error().code, ErrorCode::kNotFound);
}

TEST(Config, ToTomlReadsBackToTheSameValues) {
  Config original;
  ASSERT_TRUE(original.set_flag("llm.base_url", "http://host:8080/v1 \"quoted\""));
  ASSERT_TRUE(original.set_flag("llm.timeout_seconds", "12.5"));

  Config copy;
  Result<void> merged = copy.merge_toml(original.to_toml(), "roundtrip.toml");

  ASSERT_TRUE(merged) << merged.error().describe() << "\n" << original.to_toml();
  EXPECT_EQ(copy.get_string("llm.base_url"), "http://host:8080/v1 \"quoted\"");
  EXPECT_EQ(copy.get_double("llm.timeout_seconds"), 12.5);
  EXPECT_EQ(copy.get_int("llm.max_reasks"), 2);
}

TEST(Config, ThrowsWhenReadWithTheWrongType) {
  const Config config;

  EXPECT_THROW(config.get_int("llm.model"), std::logic_error);
  EXPECT_THROW(config.get_string("llm.nothing"), std::logic_error);
}

TEST(Config, DerivesEnvironmentNamesFromKeys) {
  EXPECT_EQ(Config::environment_name("llm.base_url"), "PLANFIRST_LLM_BASE_URL");
}

TEST(Config, NamesTheEmbeddingKeyVariableLikeTheLlmOne) {
  Config config;

  Result<void> merged = config.merge_toml("[embed]\napi_key_env = \"TEI_TOKEN\"\n", "inline.toml");

  ASSERT_TRUE(merged) << merged.error().describe();
  EXPECT_EQ(Config().get_string("embed.api_key_env"), "PLANFIRST_EMBED_API_KEY");
  EXPECT_EQ(config.get_string("embed.api_key_env"), "TEI_TOKEN");
  EXPECT_EQ(Config::environment_name("embed.api_key_env"), "PLANFIRST_EMBED_API_KEY_ENV");
}

TEST(Config, ReadsTheVariableThatAKeyEnvNames) {
  Config config;
  ASSERT_TRUE(config.set_flag("embed.api_key_env", "TEI_TOKEN"));
  const Environment env{{"TEI_TOKEN", "sk-tei"}, {"PLANFIRST_LLM_API_KEY", "sk-llm"}};

  EXPECT_EQ(config.variable_named_by("embed.api_key_env", env), "sk-tei");
  EXPECT_EQ(config.variable_named_by("llm.api_key_env", env), "sk-llm");
  EXPECT_EQ(config.variable_named_by("embed.api_key_env", {}), "");
}

TEST(Config, ReadsNoVariableWhenTheKeyEnvIsEmpty) {
  Config config;
  ASSERT_TRUE(config.set_flag("llm.api_key_env", ""));

  EXPECT_EQ(config.variable_named_by("llm.api_key_env", {{"", "odd"}, {"PLANFIRST_LLM_API_KEY", "sk"}}), "");
}

}  // namespace
}  // namespace planfirst::core
