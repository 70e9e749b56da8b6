#include "core/trim.hpp"

#include <gtest/gtest.h>

#include <string>

namespace planfirst::core {
namespace {

TEST(Trim, DropsSpacesTabsAndLineEndsAtBothEnds) {
  EXPECT_EQ(trim(" \t a b \r\n"), "a b");
  EXPECT_EQ(trim("ERROR:  relation \"x\" does not exist\n"), "ERROR:  relation \"x\" does not exist");
}

TEST(Trim, KeepsInnerWhiteSpaceAndOtherBytes) {
  EXPECT_EQ(trim("a \n b"), "a \n b");
  EXPECT_EQ(trim("\xc2\xa0x\xc2\xa0"), "\xc2\xa0x\xc2\xa0");  // a no-break space is not ASCII space
}

TEST(Trim, GivesEmptyForBlankText) {
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim(" \t\r\n "), "");
}

TEST(Trim, ViewsIntoItsArgument) {
  const std::string text = "  word  ";
  const std::string_view trimmed = trim(text);
  EXPECT_EQ(trimmed.data(), text.data() + 2);
  EXPECT_EQ(trimmed.size(), 4u);
}

}  // namespace
}  // namespace planfirst::core
