#include "core/logging.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace planfirst::core {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Each test points the default logger at its own stream, then back at stderr.
class Logging : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_TRUE(configure_logging({}).has_value()); }

  std::ostringstream out_;
};

TEST_F(Logging, JsonFormatWritesOneParseableObjectPerLine) {
  ASSERT_TRUE(configure_logging({.format = "json", .level = "info", .logger = "test", .stream = &out_}));

  log_info("loaded {} rows from \"{}\"", 42, "sales.csv");
  log_warn("second line\nwith a newline");

  const std::vector<std::string> lines = lines_of(out_.str());
  ASSERT_EQ(lines.size(), 2u);
  const nlohmann::json first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first.at("msg"), "loaded 42 rows from \"sales.csv\"");
  EXPECT_EQ(first.at("level"), "info");
  EXPECT_EQ(first.at("logger"), "test");
  EXPECT_EQ(first.at("ts").get<std::string>().size(), std::string("2024-01-15T10:20:30.123Z").size());
  EXPECT_EQ(nlohmann::json::parse(lines[1]).at("msg"), "second line\nwith a newline");
}

TEST_F(Logging, DropsMessagesBelowTheLevel) {
  ASSERT_TRUE(configure_logging({.format = "text", .level = "warn", .stream = &out_}));

  log_info("hidden");
  log_error("shown");

  EXPECT_EQ(out_.str().find("hidden"), std::string::npos);
  EXPECT_NE(out_.str().find("shown"), std::string::npos);
  EXPECT_FALSE(log_enabled(LogLevel::kInfo));
}

TEST_F(Logging, TextFormatNamesLevelAndLogger) {
  ASSERT_TRUE(configure_logging({.format = "text", .level = "debug", .logger = "cli", .stream = &out_}));

  log_debug("step {}", 3);

  EXPECT_NE(out_.str().find("debug [cli] step 3\n"), std::string::npos) << out_.str();
}

TEST_F(Logging, RejectsAnUnknownLevelByName) {
  Result<void> result = configure_logging({.format = "text", .level = "verbose"});

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(result.error().message.find("'verbose'"), std::string::npos);
}

TEST_F(Logging, RejectsAnUnknownFormatByName) {
  Result<void> result = configure_logging({.format = "xml", .level = "info"});

  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("'xml'"), std::string::npos);
}

}  // namespace
}  // namespace planfirst::core
