#include "core/base64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace planfirst::core {
namespace {

TEST(Base64Encode, MatchesTheRfc4648TestVectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64Encode, EncodesBasicAuthCredentialsAndHighBytes) {
  EXPECT_EQ(base64_encode("neo4j:secret"), "bmVvNGo6c2VjcmV0");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

}  // namespace
}  // namespace planfirst::core
