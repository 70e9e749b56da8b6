#include "e2e/command_runner.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/file_text.hpp"

namespace planfirst::e2e {

std::string read_text(const std::filesystem::path& file) {
  core::Result<std::string> text = core::read_file_text(file);
  return text ? std::move(*text) : std::string();
}

core::Json parsed(const CommandOutcome& run) {
  core::Json json = core::Json::parse(run.output, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << run.output;
  return json;
}

CommandOutcome run_command(const std::string& command_line) {
  CommandOutcome outcome;
  const std::string wrapped = command_line + " 2>&1 </dev/null";
  std::FILE* pipe = ::popen(wrapped.c_str(), "r");
  if (pipe == nullptr) return outcome;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) outcome.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return outcome;
}

std::string binary(const std::string& relative_path) {
  return std::string(PLANFIRST_BINARY_DIR) + "/" + relative_path;
}
std::string planfirst(const std::string& args) {
  return binary("planfirst") + " " + args;
}
std::string source(const std::string& relative_path) {
  return std::string(PLANFIRST_SOURCE_DIR) + "/" + relative_path;
}

}  // namespace planfirst::e2e
