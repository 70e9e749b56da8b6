#include "core/config.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>

#include "core/file_text.hpp"
#include "core/similarity.hpp"

namespace planfirst::core {
namespace {

constexpr double kNoMinimum = -std::numeric_limits<double>::infinity();

struct KeySpec {
  std::string_view key;
  ConfigType type;
  std::string_view default_text;
  std::span<const std::string_view> choices = {};  // empty: any value
  double minimum = kNoMinimum;                     // numbers only
};

constexpr std::string_view kStructuredOutputModes[] = {"response_format", "llamacpp", "ollama", "none"};
constexpr std::string_view kLogFormats[] = {"text", "json"};
constexpr std::string_view kLogLevels[] = {"trace", "debug", "info", "warn", "error", "off"};

constexpr std::array<KeySpec, 20> kKeys{{
    {"llm.base_url", ConfigType::kString, ""},
    {"llm.model", ConfigType::kString, ""},
    {"llm.api_key_env", ConfigType::kString, "PLANFIRST_LLM_API_KEY"},
    {"llm.structured_output", ConfigType::kString, "response_format", kStructuredOutputModes},
    {"llm.max_reasks", ConfigType::kInt, "2", {}, 0},
    {"llm.timeout_seconds", ConfigType::kDouble, "60", {}, 0},
    {"llm.max_tokens", ConfigType::kInt, "0", {}, 0},
    {"embed.base_url", ConfigType::kString, ""},
    {"embed.model", ConfigType::kString, "bge-small-en"},
    {"embed.api_key_env", ConfigType::kString, "PLANFIRST_EMBED_API_KEY"},
    {"data.duckdb", ConfigType::kString, ""},
    {"data.postgres", ConfigType::kString, ""},
    {"data.docs", ConfigType::kString, ""},
    {"assets.dir", ConfigType::kString, ""},
    {"log.format", ConfigType::kString, "text", kLogFormats},
    {"log.level", ConfigType::kString, "warn", kLogLevels},
    {"checkpoint.uri", ConfigType::kString, ""},
    {"checkpoint.keep_threads", ConfigType::kInt, "100", {}, 0},
    {"checkpoint.keep_days", ConfigType::kInt, "30", {}, 0},
    {"render.keep_alive_seconds", ConfigType::kInt, "300", {}, 0},
}};

struct Assignment {
  const KeySpec* spec;
  ConfigValue value;
  std::string source;
};

const KeySpec* find_spec(std::string_view key) {
  for (const KeySpec& spec : kKeys) {
    if (spec.key == key) return &spec;
  }
  return nullptr;
}

bool is_section(std::string_view name) {
  const std::string prefix = std::string(name) + ".";
  for (const KeySpec& spec : kKeys) {
    if (spec.key.starts_with(prefix)) return true;
  }
  return false;
}

Error unknown_key(std::string_view key, std::string where) {
  std::vector<std::string> keys;
  for (const KeySpec& spec : kKeys) keys.emplace_back(spec.key);
  const std::optional<std::string> closest = closest_name(key, keys);
  const std::string hint = closest ? fmt::format(" (did you mean '{}'?)", *closest) : "";
  return invalid_argument(fmt::format("unknown config key '{}'{}", key, hint), std::move(where));
}

std::string text_of(const ConfigValue& value) {
  switch (static_cast<ConfigType>(value.index())) {
    case ConfigType::kString: return std::get<std::string>(value);
    case ConfigType::kInt: return std::to_string(std::get<std::int64_t>(value));
    case ConfigType::kDouble: return fmt::format("{}", std::get<double>(value));
    case ConfigType::kBool: return std::get<bool>(value) ? "true" : "false";
  }
  return {};
}

bool is_choice(std::span<const std::string_view> choices, std::string_view value) {
  return std::find(choices.begin(), choices.end(), value) != choices.end();
}

double number_of(const ConfigValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&value)) return *d;
  return 0;
}

// Checks the value against the key's choices and minimum.
Result<ConfigValue> validated(const KeySpec& spec, ConfigValue value, const std::string& where) {
  if (!spec.choices.empty() && !is_choice(spec.choices, text_of(value))) {
    return invalid_argument(fmt::format("config key '{}' must be one of {}; got '{}'", spec.key,
                                        fmt::join(spec.choices, ", "), text_of(value)),
                            where);
  }
  if (const auto* d = std::get_if<double>(&value); d && !std::isfinite(*d)) {
    return invalid_argument(fmt::format("config key '{}' must be a finite number", spec.key), where);
  }
  if (number_of(value) < spec.minimum) {
    return invalid_argument(
        fmt::format("config key '{}' must be at least {}; got {}", spec.key, spec.minimum, text_of(value)),
        where);
  }
  return value;
}

template <typename Number>
std::optional<Number> read_number(std::string_view text) {
  Number number{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return number;
}

std::optional<bool> read_bool(std::string_view text) {
  if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "0" || text == "no" || text == "off") return false;
  return std::nullopt;
}

std::optional<ConfigValue> read_text(ConfigType type, std::string_view text) {
  switch (type) {
    case ConfigType::kString: return ConfigValue(std::string(text));
    case ConfigType::kInt:
      if (auto i = read_number<std::int64_t>(text)) return ConfigValue(*i);
      break;
    case ConfigType::kDouble:
      if (auto d = read_number<double>(text)) return ConfigValue(*d);
      break;
    case ConfigType::kBool:
      if (auto b = read_bool(text)) return ConfigValue(*b);
      break;
  }
  return std::nullopt;
}

// A value given as text, by the environment or a flag.
Result<ConfigValue> from_text(const KeySpec& spec, std::string_view text, const std::string& where) {
  std::optional<ConfigValue> value = read_text(spec.type, text);
  if (!value) {
    return invalid_argument(
        fmt::format("config key '{}' must be of type {}; got '{}'", spec.key, to_string(spec.type), text),
        where);
  }
  return validated(spec, std::move(*value), where);
}

std::string_view node_type_name(toml::node_type type) {
  switch (type) {
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    default: return "date/time";
  }
}

std::optional<ConfigValue> read_node(ConfigType type, const toml::node& node) {
  switch (type) {
    case ConfigType::kString:
      if (auto s = node.value_exact<std::string>()) return ConfigValue(*s);
      break;
    case ConfigType::kInt:
      if (auto i = node.value_exact<std::int64_t>()) return ConfigValue(*i);
      break;
    case ConfigType::kDouble:
      if (node.is_number()) return ConfigValue(*node.value<double>());
      break;
    case ConfigType::kBool:
      if (auto b = node.value_exact<bool>()) return ConfigValue(*b);
      break;
  }
  return std::nullopt;
}

Result<ConfigValue> from_node(const KeySpec& spec, const toml::node& node, const std::string& where) {
  std::optional<ConfigValue> value = read_node(spec.type, node);
  if (!value) {
    return invalid_argument(fmt::format("config key '{}' must be of type {}; got {}", spec.key,
                                        to_string(spec.type), node_type_name(node.type())),
                            where);
  }
  return validated(spec, std::move(*value), where);
}

std::string where_of(std::string_view origin, const toml::source_region& region) {
  if (region.begin.line == 0) return std::string(origin);
  return fmt::format("{}:{}", origin, region.begin.line);
}

Result<void> collect(const toml::table& table, const std::string& prefix, std::string_view origin,
                     std::vector<Assignment>& out) {
  for (const auto& [name, node] : table) {
    const std::string key = prefix.empty() ? std::string(name.str()) : prefix + "." + std::string(name.str());
    std::string where = where_of(origin, name.source());
    if (const KeySpec* spec = find_spec(key)) {
      Result<ConfigValue> value = from_node(*spec, node, where);
      if (!value) return value.error();
      out.push_back({spec, std::move(*value), std::move(where)});
    } else if (node.is_table() && is_section(key)) {
      if (Result<void> nested = collect(*node.as_table(), key, origin, out); !nested) return nested;
    } else {
      return unknown_key(key, std::move(where));
    }
  }
  return ok();
}

}  // namespace

Environment process_environment() {
  Environment env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    env.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return env;
}

std::string_view to_string(ConfigType type) {
  switch (type) {
    case ConfigType::kString: return "string";
    case ConfigType::kInt: return "integer";
    case ConfigType::kDouble: return "float";
    case ConfigType::kBool: return "boolean";
  }
  return "string";
}

Config::Config() {
  for (const KeySpec& spec : kKeys) {
    std::optional<ConfigValue> value = read_text(spec.type, spec.default_text);
    if (!value) throw std::logic_error("bad default for config key " + std::string(spec.key));
    settings_.emplace(std::string(spec.key), Setting{std::move(*value), "default"});
  }
}

Result<Config> Config::load(const std::filesystem::path& file, const Environment& env) {
  Config config;
  if (!file.empty()) {
    if (Result<void> merged = config.merge_file(file); !merged) return merged.error();
  }
  if (Result<void> merged = config.merge_environment(env); !merged) return merged.error();
  return config;
}

Result<void> Config::merge_file(const std::filesystem::path& file) {
  Result<std::string> text = read_file_text(file);
  if (!text) return not_found("cannot read config file", file.string());
  return merge_toml(*text, file.string());
}

Result<void> Config::merge_toml(std::string_view text, std::string_view origin) {
  toml::table table;
  try {
    table = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    return invalid_argument("invalid TOML: " + std::string(e.description()), where_of(origin, e.source()));
  }
  std::vector<Assignment> assignments;
  if (Result<void> collected = collect(table, "", origin, assignments); !collected) return collected;
  for (Assignment& a : assignments) {
    settings_[std::string(a.spec->key)] = {std::move(a.value), std::move(a.source)};
  }
  return ok();
}

Result<void> Config::merge_environment(const Environment& env) {
  std::vector<Assignment> assignments;
  for (const KeySpec& spec : kKeys) {
    const std::string name = environment_name(spec.key);
    const auto found = env.find(name);
    if (found == env.end()) continue;
    Result<ConfigValue> value = from_text(spec, found->second, "env:" + name);
    if (!value) return value.error();
    assignments.push_back({&spec, std::move(*value), "env:" + name});
  }
  for (Assignment& a : assignments) {
    settings_[std::string(a.spec->key)] = {std::move(a.value), std::move(a.source)};
  }
  return ok();
}

Result<void> Config::set_flag(std::string_view key, std::string_view value) {
  const KeySpec* spec = find_spec(key);
  if (spec == nullptr) return unknown_key(key, "flag");
  Result<ConfigValue> parsed = from_text(*spec, value, "flag");
  if (!parsed) return parsed.error();
  settings_[std::string(key)] = {std::move(*parsed), "flag"};
  return ok();
}

const ConfigValue& Config::value_of(std::string_view key, ConfigType type) const {
  const auto found = settings_.find(key);
  if (found == settings_.end()) throw std::logic_error("unknown config key '" + std::string(key) + "'");
  if (found->second.value.index() != static_cast<std::size_t>(type)) {
    throw std::logic_error(fmt::format("config key '{}' is not of type {}", key, to_string(type)));
  }
  return found->second.value;
}

const std::string& Config::get_string(std::string_view key) const {
  return std::get<std::string>(value_of(key, ConfigType::kString));
}

std::int64_t Config::get_int(std::string_view key) const {
  return std::get<std::int64_t>(value_of(key, ConfigType::kInt));
}

double Config::get_double(std::string_view key) const {
  return std::get<double>(value_of(key, ConfigType::kDouble));
}

bool Config::get_bool(std::string_view key) const {
  return std::get<bool>(value_of(key, ConfigType::kBool));
}

std::string Config::variable_named_by(std::string_view key, const Environment& env) const {
  const std::string& name = get_string(key);
  if (name.empty()) return "";
  const auto found = env.find(name);
  return found == env.end() ? "" : found->second;
}

std::vector<ConfigEntry> Config::entries() const {
  std::vector<ConfigEntry> entries;
  for (const KeySpec& spec : kKeys) {
    const Setting& setting = settings_.find(spec.key)->second;
    entries.push_back({std::string(spec.key), spec.type, text_of(setting.value), setting.source});
  }
  return entries;
}

std::string Config::to_toml() const {
  toml::table root;
  for (const auto& [key, setting] : settings_) {
    const std::size_t dot = key.find('.');
    toml::table& section = *root.emplace<toml::table>(key.substr(0, dot)).first->second.as_table();
    const std::string name = key.substr(dot + 1);  // a plain variable: clang 14 cannot capture bindings
    std::visit([&](const auto& value) { section.insert_or_assign(name, value); }, setting.value);
  }
  std::ostringstream out;
  out << root << '\n';
  return out.str();
}

std::string Config::environment_name(std::string_view key) {
  std::string name = "PLANFIRST_";
  for (char c : key) name += c == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace planfirst::core
