#include "sources/project_settings.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace planfirst::sources {
namespace {

using std::chrono::sys_days;

constexpr sys_days kDay = sys_days{std::chrono::year{2026} / 11 / 25};

core::Error settings_error(const test_support::TempDir& dir) {
  const core::Result<ProjectSettings> settings = load_project_settings(dir.path());
  EXPECT_FALSE(settings);
  return settings ? core::Error{} : settings.error();
}

TEST(ProjectSettingsTest, AFolderWithoutTheFileHasNoSettings) {
  const test_support::TempDir dir;

  const core::Result<ProjectSettings> settings = load_project_settings(dir.path());

  ASSERT_TRUE(settings) << settings.error().describe();
  EXPECT_TRUE(settings->file.empty());
  EXPECT_FALSE(settings->as_of);
}

TEST(ProjectSettingsTest, AsOfIsATomlDateOrADayInAString) {
  const test_support::TempDir date;
  const test_support::TempDir text;
  date.write("planfirst.toml", "[project]\nas_of = 2026-11-25\n");
  text.write("planfirst.toml", "[project]\nas_of = \"2026-11-25\"\n");

  const core::Result<ProjectSettings> from_date = load_project_settings(date.path());
  const core::Result<ProjectSettings> from_text = load_project_settings(text.path());

  ASSERT_TRUE(from_date) << from_date.error().describe();
  ASSERT_TRUE(from_text) << from_text.error().describe();
  EXPECT_EQ(from_date->as_of, kDay);
  EXPECT_EQ(from_text->as_of, kDay);
  EXPECT_EQ(from_date->file, date.path() / "planfirst.toml");
}

TEST(ProjectSettingsTest, AnUnknownKeyIsRefusedWithItsLine) {
  const test_support::TempDir dir;
  dir.write("planfirst.toml", "[project]\nas_of = 2026-11-25\nasof = 2026-11-26\n");

  const core::Error error = settings_error(dir);

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(error.where, (dir.path() / "planfirst.toml").string() + ":3");
  EXPECT_NE(error.message.find("unknown key 'project.asof'"), std::string::npos) << error.message;
}

TEST(ProjectSettingsTest, AnAsOfThatIsNotADayIsRefusedWithItsLine) {
  for (const char* value : {"2026-11-25T10:00:00", "\"next week\"", "20261125", "\"2026-02-30\""}) {
    const test_support::TempDir dir;
    dir.write("planfirst.toml", std::string("[project]\nas_of = ") + value + "\n");

    const core::Error error = settings_error(dir);

    EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument) << value;
    EXPECT_EQ(error.where, (dir.path() / "planfirst.toml").string() + ":2") << value;
    EXPECT_NE(error.message.find("project.as_of must be a day"), std::string::npos) << error.message;
  }
}

TEST(ProjectSettingsTest, TextThatIsNotTomlIsRefusedWithItsLine) {
  const test_support::TempDir dir;
  dir.write("planfirst.toml", "[project]\nas_of = = 2026-11-25\n");

  const core::Error error = settings_error(dir);

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(error.where, (dir.path() / "planfirst.toml").string() + ":2");
  EXPECT_NE(error.message.find("invalid TOML"), std::string::npos) << error.message;
}

TEST(ProjectSettingsTest, TheExampleProjectDescribesTheDayOfItsSnapshot) {
  const core::Result<ProjectSettings> settings =
      load_project_settings(std::filesystem::path(PLANFIRST_SOURCE_DIR) / "examples" / "project");

  ASSERT_TRUE(settings) << settings.error().describe();
  EXPECT_EQ(settings->as_of, kDay);
}

}  // namespace
}  // namespace planfirst::sources
