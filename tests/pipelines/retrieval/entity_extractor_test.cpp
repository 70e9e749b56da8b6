// EntityExtractor with the shipped rules: the people a question names, by role (assignees, authors),
// read from the language around them, beside the projects, dates and statuses.
#include "pipelines/retrieval/entity_extractor.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "retrieval_fixture.hpp"

namespace planfirst::retrieval {
namespace {

using Names = std::vector<std::string>;

Entities entities_of(std::string_view question) {
  static const IntentRules kRules = testing::shipped_intent_rules();
  return EntityExtractor(kRules.entities).extract(question_words(question));
}

TEST(EntityExtractor, KeepsTheAssigneeBesideTheProjectAndStatus) {
  const Entities entities = entities_of("open issues assigned to alice in project mobile-app");

  EXPECT_EQ(entities.assignees, Names{"alice"});
  EXPECT_EQ(entities.projects, Names{"mobile-app"});
  EXPECT_EQ(entities.statuses, Names{"open"});
  EXPECT_TRUE(entities.authors.empty());
}

TEST(EntityExtractor, ReadsAuthorsAfterByAndFromAPossessiveBeforeCodeWords) {
  EXPECT_EQ(entities_of("commits by bob last week").authors, Names{"bob"});
  EXPECT_EQ(entities_of("issues authored by Carol").authors, Names{"Carol"});
  EXPECT_EQ(entities_of("bob's merge requests").authors, Names{"bob"});
  EXPECT_EQ(entities_of("what did Dana\xE2\x80\x99s commits change?").authors, Names{"Dana"});
}

TEST(EntityExtractor, APossessiveBeforeIssueWordsIsAnAssignee) {
  const Entities entities = entities_of("list alice's open issues this month");

  EXPECT_EQ(entities.assignees, Names{"alice"});
  EXPECT_TRUE(entities.authors.empty());
  EXPECT_EQ(entities.dates, Names{"this month"});
}

TEST(EntityExtractor, AFixerIsAnAssigneeNotAnAuthor) {
  const Entities entities = entities_of("bugs fixed by erin");

  EXPECT_EQ(entities.assignees, Names{"erin"});
  EXPECT_TRUE(entities.authors.empty());
  EXPECT_EQ(entities.statuses, Names{"closed"});
}

TEST(EntityExtractor, ReadsBothRolesOfOneQuestionInOrder) {
  const Entities entities =
      entities_of("tickets assigned to frank or grace created by heidi and commits by ivan");

  EXPECT_EQ(entities.assignees, (Names{"frank", "grace"}));
  EXPECT_EQ(entities.authors, (Names{"heidi", "ivan"}));
}

TEST(EntityExtractor, ReadsAListOfNamesOnlyWhereItEnds) {
  EXPECT_EQ(entities_of("commits by alice or bob last week").authors, (Names{"alice", "bob"}));
  EXPECT_EQ(entities_of("commits by alice and bob").authors, (Names{"alice", "bob"}));
  EXPECT_EQ(entities_of("commits by alice and show everything").authors, Names{"alice"});
}

TEST(EntityExtractor, NamesNobodyWhereTheWordsAreNoName) {
  for (const char* question :
       {"commits grouped by author", "issues sorted by priority", "tickets assigned to me",
        "commits by the backend team", "merge requests by group/app", "issues closed by 2024-03-01",
        "commits by gitlab", "the project's issues", "issues created by last week", "step by step help"}) {
    const Entities entities = entities_of(question);

    EXPECT_TRUE(entities.assignees.empty()) << question;
    EXPECT_TRUE(entities.authors.empty()) << question;
  }
}

TEST(EntityExtractor, AProjectIsNeverReadAsAPerson) {
  const Entities entities = entities_of("commits by group/app and bob's merge requests in repo billing-api");

  EXPECT_EQ(entities.projects, (Names{"group/app", "billing-api"}));
  EXPECT_EQ(entities.authors, Names{"bob"});
}

}  // namespace
}  // namespace planfirst::retrieval
