// The analyst graph counts relative periods back from the run's reference day (state "as_of"), not
// from the wall clock: a project that sets its day answers the same on any date; without one, the
// answers follow the clock. The db source is the example project's, on DuckDB, with injected clocks.
#include "core/reference_day.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "analyst_fixture.hpp"
#include "core/clock.hpp"
#include "sources/db_source.hpp"

namespace planfirst::analyst::testing {
namespace {

using nlohmann::json;
using std::chrono::sys_days;

constexpr sys_days kSnapshotDay = sys_days{std::chrono::year{2026} / 11 / 25};
constexpr sys_days kAYearLater = sys_days{std::chrono::year{2027} / 11 / 25};

// The example project's status scripts, copied so the DuckDB file is built outside the source tree.
const std::filesystem::path& project_copy() {
  static const test_support::TempDir dir;
  static const bool copied = [] {
    const auto scripts = std::filesystem::path(PLANFIRST_SOURCE_DIR) / "examples" / "project" / "status";
    std::filesystem::create_directories(dir.path() / "status");
    for (const char* name : {"schema.sql", "data.sql"})
      std::filesystem::copy_file(scripts / name, dir.path() / "status" / name);
    return true;
  }();
  (void)copied;
  return dir.path();
}

// The analyst graph over the example project's db source whose clock reads `today` at noon.
class Analyst {
 public:
  explicit Analyst(sys_days today) : clock_(today + std::chrono::hours(12)) {
    auto db = sources::DbSource::open(project_copy().string(), core::AssetStore(), clock_);
    EXPECT_TRUE(db) << db.error().describe();
    AnalystOptions options;
    if (db) options.sources.emplace("db", std::shared_ptr<const sources::RetrievalSource>(std::move(*db)));
    graph_.emplace(load_services(std::move(options)));
  }

  core::Result<graph::RunResult> run(const json& input) {
    return graph_->runner.run("t" + std::to_string(++runs_), graph::JsonValue(input));
  }

  json answer(const std::string& question, const json& as_of) {
    json input{{"user_query", question}};
    if (!as_of.is_null()) input["as_of"] = as_of;
    core::Result<graph::RunResult> result = run(input);
    EXPECT_TRUE(result && result->status == graph::RunStatus::kDone) << question;
    return result ? result->state.json()["answer"]["content"] : json();
  }

 private:
  core::ManualClock clock_;
  std::optional<GraphHarness> graph_;
  int runs_ = 0;
};

const json kProjectDay =
    core::to_json(core::ReferenceDay{kSnapshotDay, core::ReferenceOrigin::kProject, "orbit"});

constexpr const char* kRelativeQuestions[] = {
    "What's the throughput this month?",
    "How many overdue items are there?",
    "What was the velocity over the last 3 sprints?",
};

TEST(AnalystReferenceDay, TheProjectsDayGivesTheSameAnswersOnAnyWallClockDate) {
  Analyst today(kSnapshotDay);
  Analyst next_year(kAYearLater);

  for (const char* question : kRelativeQuestions) {
    const json now = today.answer(question, kProjectDay);
    const json later = next_year.answer(question, kProjectDay);

    ASSERT_TRUE(now.contains("value")) << question << ": " << now;
    EXPECT_FALSE(now["value"].is_null()) << question << ": " << now;
    EXPECT_EQ(now, later) << question;
  }
}

TEST(AnalystReferenceDay, WithoutAReferenceDayTheAnswersFollowTheClock) {
  Analyst today(kSnapshotDay);
  Analyst next_year(kAYearLater);

  const json now = today.answer("How many overdue items are there?", json());
  const json later = next_year.answer("How many overdue items are there?", json());
  const json month_now = today.answer("What's the throughput this month?", json());
  const json month_later = next_year.answer("What's the throughput this month?", json());

  EXPECT_EQ(now["period"], "as of 2026-11-25");
  EXPECT_EQ(later["period"], "as of 2027-11-25");
  EXPECT_EQ(month_now["period"], "2026-11-01 .. 2026-11-30");
  EXPECT_NE(month_now, month_later);
}

TEST(AnalystReferenceDay, AClockReferenceDayIsTheSameAsNoneOnThatDay) {
  Analyst today(kSnapshotDay);
  const json clock_day = core::to_json(core::reference_day_from_clock(kSnapshotDay + std::chrono::hours(12)));

  EXPECT_EQ(today.answer("How many overdue items are there?", clock_day),
            today.answer("How many overdue items are there?", json()));
}

TEST(AnalystReferenceDay, AMalformedReferenceDayFailsTheRunNamingTheField) {
  Analyst today(kSnapshotDay);

  core::Result<graph::RunResult> result = today.run(
      json{{"user_query", "How many overdue items are there?"}, {"as_of", {{"date", "25.11.2026"}}}});

  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->status, graph::RunStatus::kFailed);
  ASSERT_TRUE(result->error);
  EXPECT_EQ(result->error->where, "/as_of/date");
}

}  // namespace
}  // namespace planfirst::analyst::testing
