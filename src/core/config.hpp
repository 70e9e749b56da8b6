// Config: a fixed table of typed keys with defaults, overridden by a TOML file, then the environment
// (PLANFIRST_<SECTION>_<KEY>), then flags. Bad input is kInvalidArgument naming the dotted key and
// where; reading a key that is unknown or of another type is a bug (std::logic_error). Share const.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.hpp"

namespace planfirst::core {

using Environment = std::map<std::string, std::string, std::less<>>;  // variable name -> value

Environment process_environment();  // this process's environment, read once

enum class ConfigType { kString, kInt, kDouble, kBool };
using ConfigValue = std::variant<std::string, std::int64_t, double, bool>;  // index = ConfigType

std::string_view to_string(ConfigType type);  // "string", "integer", "float", "boolean"

struct ConfigEntry {
  std::string key;  // "llm.base_url"
  ConfigType type = ConfigType::kString;
  std::string value;   // as text: "http://localhost:8080", "2", "60", "true"
  std::string source;  // "default", "<file>:<line>", "env:PLANFIRST_LLM_MODEL" or "flag"
};

class Config {
 public:
  Config();  // every key at its default

  // Defaults, then `file` (skipped when empty), then `env`.
  static Result<Config> load(const std::filesystem::path& file, const Environment& env);

  Result<void> merge_file(const std::filesystem::path& file);
  // `origin` names the text in errors and sources, e.g. a file path.
  Result<void> merge_toml(std::string_view text, std::string_view origin);
  Result<void> merge_environment(const Environment& env);
  Result<void> set_flag(std::string_view key, std::string_view value);

  const std::string& get_string(std::string_view key) const;
  std::int64_t get_int(std::string_view key) const;
  double get_double(std::string_view key) const;
  bool get_bool(std::string_view key) const;

  // The value of the environment variable whose name string key `key` holds (e.g. llm.api_key_env,
  // embed.api_key_env: secrets stay out of config files); "" when the key is empty or the variable unset.
  std::string variable_named_by(std::string_view key, const Environment& env) const;

  std::vector<ConfigEntry> entries() const;  // every key, in the table's order
  std::string to_toml() const;               // every key, one [section] each, sorted

  static std::string environment_name(std::string_view key);  // "llm.base_url" -> "PLANFIRST_LLM_BASE_URL"

 private:
  struct Setting {
    ConfigValue value;
    std::string source;
  };

  const ConfigValue& value_of(std::string_view key, ConfigType type) const;

  std::map<std::string, Setting, std::less<>> settings_;
};

}  // namespace planfirst::core
