#include "pipelines/friction/column_mapping.hpp"

#include <gtest/gtest.h>

#include "core/asset_store.hpp"

namespace planfirst::friction {
namespace {

data::SchemaProfile profile_of(std::vector<std::pair<std::string, data::ColumnRole>> columns) {
  data::SchemaProfile profile;
  profile.table = "contacts";
  profile.row_count = 100;
  for (auto& [name, role] : columns) {
    data::ColumnProfile column;
    column.name = name;
    column.role = role;
    profile.columns.push_back(std::move(column));
  }
  return profile;
}

FrictionRules shipped_rules() {
  core::Result<FrictionRules> rules = FrictionRules::load(core::AssetStore());
  EXPECT_TRUE(rules) << rules.error().describe();
  return *rules;
}

TEST(ColumnMapping, MapsAnotherExportsNamesByTheirWords) {
  using R = data::ColumnRole;
  const data::SchemaProfile profile = profile_of({{"Interaction ID", R::kIdentifier},
                                                  {"Created At", R::kTemporal},
                                                  {"Contact Channel", R::kCategorical},
                                                  {"Agent Notes", R::kText},
                                                  {"Handle Time (min)", R::kMeasure},
                                                  {"Transfer Count", R::kMeasure},
                                                  {"Is Repeat", R::kBoolean},
                                                  {"Outcome", R::kCategorical}});
  const FrictionRules rules = shipped_rules();

  core::Result<ColumnMapping> mapping = map_columns(profile, rules, {});
  ASSERT_TRUE(mapping) << mapping.error().describe();
  choose_handle_time_unit(*mapping, rules, 500);

  EXPECT_EQ(mapping->columns, (std::map<std::string, std::string>{{"contact_id", "Interaction ID"},
                                                                  {"timestamp", "Created At"},
                                                                  {"channel", "Contact Channel"},
                                                                  {"summary", "Agent Notes"},
                                                                  {"handle_time", "Handle Time (min)"},
                                                                  {"transfers", "Transfer Count"},
                                                                  {"repeat", "Is Repeat"},
                                                                  {"resolution", "Outcome"}}));
  EXPECT_EQ(mapping->handle_time_unit, "minutes");
}

TEST(ColumnMapping, AHandleTimeNamedWithoutAUnitIsReadFromItsMedian) {
  ColumnMapping mapping;
  mapping.columns["handle_time"] = "duration";

  choose_handle_time_unit(mapping, shipped_rules(), 420);

  EXPECT_EQ(mapping.handle_time_unit, "seconds");
  EXPECT_EQ(mapping.handle_time_unit_reason, "its median is above 90, so seconds");
}

TEST(ColumnMapping, MissingRequiredFieldsAreOneErrorNamingEachAndTheColumns) {
  using R = data::ColumnRole;
  const data::SchemaProfile profile = profile_of({{"contact_id", R::kIdentifier},
                                                  {"timestamp", R::kTemporal},
                                                  {"channel", R::kCategorical},
                                                  {"handle_time", R::kMeasure}});

  core::Result<ColumnMapping> mapping = map_columns(profile, shipped_rules(), {});

  ASSERT_FALSE(mapping);
  EXPECT_EQ(mapping.error().code, core::ErrorCode::kInvalidArgument);
  const std::string& message = mapping.error().message;
  for (const char* field :
       {"transfers (", "repeat-contact flag (", "resolution (", "one of: contact reason ("}) {
    EXPECT_NE(message.find(field), std::string::npos) << field << " in " << message;
  }
  EXPECT_NE(message.find("Its columns are: contact_id, timestamp, channel, handle_time"), std::string::npos)
      << message;
}

TEST(ColumnMapping, AnOverrideNamingNoColumnOfTheDataIsRefused) {
  using R = data::ColumnRole;
  const data::SchemaProfile profile = profile_of({{"contact_id", R::kIdentifier}});

  core::Result<ColumnMapping> mapping = map_columns(profile, shipped_rules(), {{"summary", "notes"}});

  ASSERT_FALSE(mapping);
  EXPECT_EQ(mapping.error().where, "columns/summary");
}

}  // namespace
}  // namespace planfirst::friction
