#include "pipelines/autoviz/understand/abbreviated_value.hpp"

#include <gtest/gtest.h>

namespace planfirst::autoviz {
namespace {

using Tokens = std::vector<std::string>;

TEST(AbbreviatedValue, AValueWithDotsIsSpelledByItsLettersAsOneWord) {
  const AbbreviatedValue phd = abbreviated_value("Ph.D.");

  EXPECT_EQ(phd.compact, "phd");
  EXPECT_EQ(spelled_out_at(Tokens{"have", "a", "phd"}, 2, phd), 1u);
  EXPECT_EQ(spelled_out_at(Tokens{"have", "a", "ph", "d"}, 2, phd), 0u) << "the plain match reads the words";
}

TEST(AbbreviatedValue, ACamelCaseValueIsSpelledByAWordPerPart) {
  const AbbreviatedValue asst_prof = abbreviated_value("AsstProf");

  EXPECT_EQ(asst_prof.parts, (Tokens{"asst", "prof"}));
  EXPECT_EQ(spelled_out_at(Tokens{"male", "assistant", "professors"}, 1, asst_prof), 2u);
  EXPECT_EQ(spelled_out_at(Tokens{"male", "assistant", "professors"}, 2, asst_prof), 0u);
  EXPECT_EQ(spelled_out_at(Tokens{"assistants", "profs"}, 0, asst_prof), 2u) << "a contraction of a plural";
  EXPECT_EQ(spelled_out_at(Tokens{"associate", "professors"}, 0, asst_prof), 0u)
      << "associate does not end in t";
  EXPECT_EQ(spelled_out_at(Tokens{"associate", "professors"}, 0, abbreviated_value("AssocProf")), 2u);
  EXPECT_EQ(spelled_out_at(Tokens{"sales", "department"}, 0, abbreviated_value("SalesDept")), 2u);
  EXPECT_EQ(spelled_out_at(Tokens{"asst"}, 0, asst_prof), 0u) << "one word cannot spell two parts";
}

TEST(AbbreviatedValue, APartAbbreviatesAsABeginningOrAContraction) {
  EXPECT_TRUE(abbreviates("cust", "customers"));
  EXPECT_TRUE(abbreviates("mgr", "manager"));
  EXPECT_TRUE(abbreviates("qty", "quantity"));
  EXPECT_TRUE(abbreviates("amt", "amounts")) << "a plural's s is no letter of the word";
  EXPECT_FALSE(abbreviates("mgr", "mirror")) << "no g in mirror";
  EXPECT_FALSE(abbreviates("amt", "amazing")) << "the last letters differ";
  EXPECT_FALSE(abbreviates("id", "identity")) << "two letters abbreviate too much";
  EXPECT_FALSE(abbreviates("customer", "cust"));
}

TEST(AbbreviatedValue, PlainWordsAndShortPartsHaveNoShortForm) {
  EXPECT_TRUE(abbreviated_value("Professor").compact.empty());
  EXPECT_TRUE(abbreviated_value("Professor").parts.empty());
  EXPECT_TRUE(abbreviated_value("Good Customer").compact.empty())
      << "words with spaces are matched word by word";
  EXPECT_EQ(spelled_out_at(Tokens{"i", "phone"}, 0, abbreviated_value("iPhone")), 0u)
      << "a one-letter part abbreviates anything";
  EXPECT_EQ(spelled_out_at(Tokens{}, 0, abbreviated_value("AsstProf")), 0u);
}

}  // namespace
}  // namespace planfirst::autoviz
