#include "sources/snippet.hpp"

#include <gtest/gtest.h>

namespace planfirst::sources {
namespace {

TEST(Snippet, SnippetOfCutsAtTheLimitOnACharacterBoundary) {
  EXPECT_EQ(snippet_of("short", 10), "short");
  EXPECT_EQ(snippet_of("abcdef", 3), "abc...");
  EXPECT_EQ(snippet_of("ab\xC3\xA9z", 3), "ab...");  // é is two bytes: not split
}

TEST(Snippet, APassageKeepsWholeBlocksAndSentences) {
  const std::string text = "First sentence. Second one is longer.\n\n- item one\n- item two wraps\n  on.\n";

  EXPECT_EQ(passage_of(text, 200),
            "First sentence. Second one is longer.\n\n- item one\n- item two wraps\n  on.");
  EXPECT_EQ(passage_of(text, 30), "First sentence. ...");
  EXPECT_EQ(passage_of(text, 45), "First sentence. Second one is longer. ...");
  EXPECT_EQ(passage_of(text, 60), "First sentence. Second one is longer.\n\n- item one ...");
}

TEST(Snippet, APassageWithoutABoundaryFallsBackToACut) {
  EXPECT_EQ(passage_of("averyveryverylongwordwithoutanyend", 10), "averyveryv...");
}

TEST(Snippet, TheLeadStatementIsTheFirstSentenceOrListItem) {
  EXPECT_EQ(lead_statement("A hotfix fixes a P1 bug. It may ship on Fridays.", 200),
            "A hotfix fixes a P1 bug.");
  EXPECT_EQ(lead_statement("- Reviewers answer within a day: an approval, or\n  a note.\n- Next item.", 200),
            "Reviewers answer within a day: an approval, or a note.");
  EXPECT_EQ(lead_statement("Steps:\n\n1. Open a task.\n2. Wait.\n\nAfter that.", 200),
            "Steps: 1. Open a task. 2. Wait.");
  EXPECT_EQ(lead_statement("No end mark here", 200), "No end mark here");
  EXPECT_EQ(lead_statement("e.g. a sentence with an abbreviation.", 200),
            "e.g. a sentence with an abbreviation.");
}

}  // namespace
}  // namespace planfirst::sources
