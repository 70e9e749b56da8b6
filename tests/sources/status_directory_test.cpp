#include "sources/status_directory.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planfirst::sources {
namespace {

using Words = std::vector<std::string>;

TEST(StatusNamed, HoldsItsIdAndNameAsQuestionTokens) {
  const StatusPerson person("priya.raman", "Priya Raman");
  const StatusComponent component("billing-engine", "Billing Engine");

  EXPECT_EQ(person.id, "priya.raman");
  EXPECT_EQ(person.name, "Priya Raman");
  EXPECT_EQ(person.id_words, (Words{"priya", "raman"}));
  EXPECT_EQ(person.name_words, (Words{"priya", "raman"}));
  EXPECT_EQ(component.id_words, (Words{"billing", "engine"}));
  EXPECT_EQ(component.name_words, (Words{"billing", "engine"}));
}

TEST(StatusNamed, ANameWithoutWordsHasNoTokens) {
  const StatusPerson person("x", "--");

  EXPECT_EQ(person.id_words, (Words{"x"}));
  EXPECT_TRUE(person.name_words.empty());
}

}  // namespace
}  // namespace planfirst::sources
