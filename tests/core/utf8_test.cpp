#include "core/utf8.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace planfirst::core {
namespace {

TEST(FirstInvalidUtf8, AcceptsAsciiAndEveryEncodedLengthUpToU10FFFF) {
  EXPECT_EQ(first_invalid_utf8(""), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("revenue by region"), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x93\x88 \xF4\x8F\xBF\xBF"), std::nullopt);
}

TEST(FirstInvalidUtf8, NamesTheFirstByteOfAnOverlongSurrogateOrOutOfRangeSequence) {
  EXPECT_EQ(first_invalid_utf8("ab\xC0\xAF"), 2u);           // overlong '/'
  EXPECT_EQ(first_invalid_utf8("a\xE0\x80\xAF"), 1u);        // overlong three-byte form
  EXPECT_EQ(first_invalid_utf8("\xED\xA0\x80"), 0u);         // U+D800, a surrogate
  EXPECT_EQ(first_invalid_utf8("ok \xF4\x90\x80\x80"), 3u);  // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("\xFF"), 0u);
}

TEST(FirstInvalidUtf8, NamesASequenceCutShortOrWithABadContinuationByte) {
  EXPECT_EQ(first_invalid_utf8("abc\xE2\x82"), 3u);
  EXPECT_EQ(first_invalid_utf8("\xE2\x82\x41"), 0u);
  EXPECT_EQ(first_invalid_utf8("x\x80"), 1u);
}

TEST(InvalidUtf8Message, CountsTheBadByteFromZeroAndIsEmptyForValidText) {
  EXPECT_EQ(invalid_utf8_message("ab\xFF"), "not valid UTF-8 at byte 2 (counting from 0)");
  EXPECT_EQ(invalid_utf8_message("caf\xC3\xA9"), "");
}

TEST(EscapeInvalidUtf8, WritesEachBadByteAsHexAndKeepsTheRest) {
  EXPECT_EQ(escape_invalid_utf8("Jos\xE9,Madrid"), "Jos\\xE9,Madrid");
  EXPECT_EQ(escape_invalid_utf8("\xFF\xFEok \xC3\xA9"), "\\xFF\\xFEok \xC3\xA9") << "valid UTF-8 stays";
  EXPECT_EQ(escape_invalid_utf8(""), "");
}

}  // namespace
}  // namespace planfirst::core
