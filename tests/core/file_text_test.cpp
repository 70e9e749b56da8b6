#include "core/file_text.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.hpp"

namespace planfirst::core {
namespace {

TEST(ReadFileText, ReturnsEveryByteIncludingNul) {
  const std::string bytes("a\0b\r\n\xff", 6);
  test_support::TempDir dir;
  const auto path = dir.write("bytes.bin", bytes);

  Result<std::string> text = read_file_text(path);

  ASSERT_TRUE(text) << text.error().describe();
  EXPECT_EQ(*text, bytes);
}

TEST(ReadFileText, EmptyFileIsAnEmptyString) {
  test_support::TempDir dir;
  const auto path = dir.write("empty.txt", "");

  Result<std::string> text = read_file_text(path);

  ASSERT_TRUE(text) << text.error().describe();
  EXPECT_EQ(*text, "");
}

TEST(ReadFileText, MissingFileIsNotFoundNamingThePath) {
  Result<std::string> text = read_file_text("/nonexistent/planfirst.toml");

  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(text.error().where, "/nonexistent/planfirst.toml");
}

TEST(ReadFileText, DirectoryIsAnInvalidArgument) {
  test_support::TempDir dir;

  Result<std::string> text = read_file_text(dir.path());

  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace planfirst::core
