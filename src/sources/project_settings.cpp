#include "sources/project_settings.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <system_error>

#include "core/file_text.hpp"
#include "core/reference_day.hpp"

namespace planfirst::sources {
namespace {

std::string where_of(const std::filesystem::path& file, const toml::source_region& region) {
  return region.begin.line == 0 ? file.string() : fmt::format("{}:{}", file.string(), region.begin.line);
}

core::Result<std::chrono::sys_days> read_as_of(const toml::node& node, const std::string& where) {
  if (const auto* date = node.as_date()) {
    const std::chrono::year_month_day day{std::chrono::year(date->get().year),
                                          std::chrono::month(date->get().month),
                                          std::chrono::day(date->get().day)};
    if (day.ok()) return std::chrono::sys_days(day);
  }
  if (const auto* text = node.as_string()) {
    core::Result<std::chrono::sys_days> day = core::parse_reference_day(text->get(), "project.as_of");
    if (day) return day;
  }
  return core::invalid_argument("project.as_of must be a day such as 2026-11-25", where);
}

core::Error unknown_key(const std::string& key, const std::string& where) {
  return core::invalid_argument(
      "unknown key '" + key + "'; " + kProjectSettingsFile + " knows only [project] as_of", where);
}

}  // namespace

core::Result<ProjectSettings> load_project_settings(const std::filesystem::path& project_dir) {
  ProjectSettings settings;
  const std::filesystem::path file = project_dir / kProjectSettingsFile;
  std::error_code error;
  if (!std::filesystem::exists(file, error)) return settings;
  core::Result<std::string> text = core::read_file_text(file);
  if (!text) return core::not_found("cannot read the project settings", file.string());
  toml::table root;
  try {
    root = toml::parse(*text, file.string());
  } catch (const toml::parse_error& e) {
    return core::invalid_argument("invalid TOML: " + std::string(e.description()),
                                  where_of(file, e.source()));
  }
  settings.file = file;
  for (const auto& [name, node] : root) {
    const std::string section(name.str());
    if (section != "project" || !node.is_table()) return unknown_key(section, where_of(file, name.source()));
    for (const auto& [key_name, value] : *node.as_table()) {
      const std::string key = section + "." + std::string(key_name.str());
      const std::string where = where_of(file, key_name.source());
      if (key != "project.as_of") return unknown_key(key, where);
      core::Result<std::chrono::sys_days> day = read_as_of(value, where);
      if (!day) return day.error();
      settings.as_of = *day;
    }
  }
  return settings;
}

}  // namespace planfirst::sources
