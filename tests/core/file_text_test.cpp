#include "core/file_text.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <iterator>

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

TEST(WriteFileAtomically, ReplacesTheFileWholeAndLeavesNothingElse) {
  test_support::TempDir dir;
  const auto path = dir.write("report.md", "old");

  ASSERT_TRUE(write_file_atomically(path, std::string("new\0bytes", 9)));

  EXPECT_EQ(read_file_text(path).value_or(""), std::string("new\0bytes", 9));
  EXPECT_EQ(
      std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()),
      1);
}

TEST(WriteFileAtomically, AMissingFolderIsUnavailableNamingThePath) {
  Result<void> written = write_file_atomically("/nonexistent/folder/report.md", "x");

  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(written.error().where, "/nonexistent/folder/report.md");
}

}  // namespace
}  // namespace planfirst::core
