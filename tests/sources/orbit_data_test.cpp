// The generated Orbit status data (examples/project/status/) keeps to the facts in examples/project/README.md
// and to itself.
#include <gtest/gtest.h>

#include <set>

#include "orbit_fixture.hpp"

namespace planfirst::sources {
namespace {

using std::chrono::days;
using std::chrono::sys_days;

const orbit::Orbit& data() {
  return orbit::direct().orbit;
}

sys_days day_of(std::chrono::sys_seconds t) {
  return std::chrono::floor<days>(t);
}

TEST(OrbitData, FourteenTwoWeekSprintsTheLastActive) {
  ASSERT_EQ(data().sprints.size(), 14u);
  for (const auto& [id, sprint] : data().sprints) {
    EXPECT_EQ(sprint.start, sys_days{std::chrono::year{2026} / 5 / 25} + days(14 * (id - 1)));
    EXPECT_EQ(sprint.end, sprint.start + days(13));
    EXPECT_EQ(std::chrono::weekday(sprint.start), std::chrono::Monday);
    EXPECT_EQ(sprint.state, id == 14 ? "active" : "closed");
  }
}

TEST(OrbitData, PeopleAndComponentOwnersAreTheSharedOnes) {
  std::set<std::string> people;
  for (const auto& [id, name] : data().people) people.insert(id);

  EXPECT_EQ(people.size(), 8u);
  EXPECT_EQ(data().component_owner.size(), 7u);
  for (const auto& [component, owner] : data().component_owner)
    EXPECT_TRUE(people.contains(owner)) << component;
  EXPECT_EQ(data().component_owner.at("billing-engine"), "daniel.okafor");
  EXPECT_EQ(data().component_owner.at("reporting-pipeline"), "ben.carter");
  EXPECT_EQ(data().dependencies.size(), 6u);
}

TEST(OrbitData, IssuesReferToExistingRowsAndUseTheClosedVocabularies) {
  std::set<std::string> people;
  for (const auto& [id, name] : data().people) people.insert(id);
  const std::set<std::string> types{"bug", "story", "task"}, priorities{"P1", "P2", "P3", "P4"},
      statuses{"open", "in_progress", "in_review", "done"};

  EXPECT_GE(data().issues.size(), 250u);
  EXPECT_LE(data().issues.size(), 400u);
  for (const orbit::Issue& issue : data().issues) {
    EXPECT_TRUE(types.contains(issue.type)) << issue.key;
    EXPECT_TRUE(priorities.contains(issue.priority)) << issue.key;
    EXPECT_TRUE(statuses.contains(issue.status)) << issue.key;
    EXPECT_TRUE(data().component_owner.contains(issue.component)) << issue.key;
    EXPECT_TRUE(people.contains(issue.assignee)) << issue.key;
    EXPECT_TRUE(people.contains(issue.reporter)) << issue.key;
    if (issue.sprint) {
      EXPECT_TRUE(data().sprints.contains(*issue.sprint)) << issue.key;
    }
    EXPECT_EQ(issue.status == "done", issue.resolved.has_value()) << issue.key;
  }
}

TEST(OrbitData, ResolutionsFollowCreationAndPrecedeTheSnapshot) {
  const auto snapshot =
      std::chrono::sys_seconds(sys_days{std::chrono::year{2026} / 11 / 25}) + std::chrono::hours(9);
  for (const orbit::Issue& issue : data().issues) {
    EXPECT_LE(issue.created, snapshot) << issue.key;
    if (issue.resolved) {
      EXPECT_GT(*issue.resolved, issue.created) << issue.key;
      EXPECT_LE(*issue.resolved, snapshot) << issue.key;
    }
  }
}

TEST(OrbitData, IssuesDoneInASprintWereResolvedWithinItsDates) {
  for (const orbit::Issue& issue : data().issues) {
    if (issue.status != "done" || !issue.sprint) continue;
    const orbit::Sprint& sprint = data().sprints.at(*issue.sprint);
    EXPECT_GE(day_of(*issue.resolved), sprint.start) << issue.key;
    EXPECT_LE(day_of(*issue.resolved), sprint.end) << issue.key;
  }
}

TEST(OrbitData, CommitmentsAreIssuesCreatedBeforeTheSprintStarted) {
  ASSERT_FALSE(data().commitments.empty());
  for (const auto& [sprint_id, key] : data().commitments) {
    const orbit::Issue* issue = data().issue(key);
    ASSERT_NE(issue, nullptr) << key;
    EXPECT_LT(day_of(issue->created), data().sprints.at(sprint_id).start) << key;
  }
}

TEST(OrbitData, BlocksLinksCrossComponentsAlongDependencies) {
  std::set<std::pair<std::string, std::string>> depends(data().dependencies.begin(),
                                                        data().dependencies.end());
  int blocks = 0;
  for (const auto& [from, to, kind] : data().links) {
    const orbit::Issue* a = data().issue(from);
    const orbit::Issue* b = data().issue(to);
    ASSERT_NE(a, nullptr) << from;
    ASSERT_NE(b, nullptr) << to;
    EXPECT_TRUE(kind == "blocks" || kind == "relates_to" || kind == "duplicates") << kind;
    if (kind != "blocks") continue;
    ++blocks;
    // the blocked issue's component depends on the blocking one's
    EXPECT_TRUE(depends.contains({b->component, a->component})) << from << " blocks " << to;
  }
  EXPECT_GE(blocks, 20);
}

TEST(OrbitData, CommitsReferToIssuesTheirAuthorsAndComponents) {
  std::set<std::string> people;
  for (const auto& [id, name] : data().people) people.insert(id);

  EXPECT_GE(data().commits.size(), 600u);
  for (const orbit::Commit& commit : data().commits) {
    EXPECT_TRUE(people.contains(commit.author)) << commit.sha;
    EXPECT_TRUE(data().component_owner.contains(commit.component)) << commit.sha;
    if (!commit.issue) continue;
    const orbit::Issue* issue = data().issue(*commit.issue);
    ASSERT_NE(issue, nullptr) << commit.sha;
    EXPECT_EQ(issue->component, commit.component) << commit.sha;
    EXPECT_GE(commit.at, issue->created) << commit.sha;
    if (issue->resolved) {
      EXPECT_LE(commit.at, *issue->resolved) << commit.sha;
    }
  }
}

}  // namespace
}  // namespace planfirst::sources
