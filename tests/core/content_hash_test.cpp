#include "core/content_hash.hpp"

#include <gtest/gtest.h>

#include <string>

namespace planfirst::core {
namespace {

TEST(ContentHash, MatchesPublishedFnv1aVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(ContentHash, ContinuesAHashPieceByPiece) {
  const std::uint64_t whole = fnv1a64("foobar");

  const std::uint64_t pieces = fnv1a64("bar", fnv1a64("foo"));

  EXPECT_EQ(pieces, whole);
}

TEST(ContentHash, ChecksumChangesWithEveryByteAndWithTheLength) {
  const std::string data(1003, 'q');  // 125 words and a 3-byte tail
  const std::uint64_t original = checksum64(data);

  std::uint64_t changed_somewhere = 0;
  for (const std::size_t at : {0u, 7u, 8u, 500u, 1000u, 1002u}) {
    std::string flipped = data;
    flipped[at] ^= 0x40;
    changed_somewhere += checksum64(flipped) != original ? 1 : 0;
  }

  EXPECT_EQ(changed_somewhere, 6u);
  EXPECT_NE(checksum64(data + std::string(1, '\0')),
            original);  // zero padding is not the same as a zero byte
  EXPECT_EQ(checksum64(data), original);
  EXPECT_EQ(to_hex(0x85944171f73967e8ULL), "85944171f73967e8");
}

}  // namespace
}  // namespace planfirst::core
