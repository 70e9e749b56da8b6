#include "core/registry_yaml.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/temp_dir.hpp"

namespace planfirst::core {
namespace {

// A registry file "registry/test.yaml" holding `text`, read through an AssetStore that overrides it.
class RegistryFile {
 public:
  explicit RegistryFile(std::string_view text) {
    std::filesystem::create_directories(dir_.path() / "registry");
    dir_.write("registry/test.yaml", text);
  }
  Result<RegistryYaml> load() const {
    return RegistryYaml::load(AssetStore(dir_.path()), "registry/test.yaml");
  }
  std::string origin() const { return (dir_.path() / "registry/test.yaml").string(); }

 private:
  test_support::TempDir dir_;
};

TEST(RegistryYaml, AMissingFileIsNotFound) {
  const Result<RegistryYaml> yaml = RegistryYaml::load(AssetStore(), "registry/no_such_file.yaml");

  ASSERT_FALSE(yaml.has_value());
  EXPECT_EQ(yaml.error().code, ErrorCode::kNotFound);
}

TEST(RegistryYaml, ARootThatIsNoMappingIsRefusedAtTheFile) {
  const RegistryFile file("- one\n- two\n");

  const Result<RegistryYaml> yaml = file.load();

  ASSERT_FALSE(yaml.has_value());
  EXPECT_EQ(yaml.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(yaml.error().message, "the file must be a mapping, not a list");
  EXPECT_EQ(yaml.error().where, file.origin());
}

TEST(RegistryYaml, TextThatIsNotYamlNamesTheParsersLine) {
  const RegistryFile file("version: 1\nkey: [unclosed\n");

  const Result<RegistryYaml> yaml = file.load();

  ASSERT_FALSE(yaml.has_value());
  EXPECT_TRUE(yaml.error().message.starts_with("not YAML: ")) << yaml.error().message;
  EXPECT_TRUE(yaml.error().where.starts_with(file.origin() + ":")) << yaml.error().where;
}

TEST(RegistryYaml, AFaultNamesTheLineOfItsNode) {
  const RegistryFile file("version: 1\nname: chart\nlimit: many\n");
  const Result<RegistryYaml> yaml = file.load();
  ASSERT_TRUE(yaml.has_value()) << yaml.error().message;

  const Result<double> limit = yaml->number(yaml_child(yaml->root(), "limit"), "limit");
  const Error scalar = yaml->fault(yaml_child(yaml->root(), "name"), "tool chart", "'name' is taken");

  ASSERT_FALSE(limit.has_value());
  EXPECT_EQ(limit.error().message, "limit must be a number, not \"many\"");
  EXPECT_EQ(limit.error().where, file.origin() + ":3");
  EXPECT_EQ(scalar.message, "tool chart: 'name' is taken");
  EXPECT_EQ(scalar.where, file.origin() + ":2");
}

TEST(RegistryYaml, VersionMustBeAPositiveInteger) {
  const RegistryFile good("version: 2\n");
  const RegistryFile bad("version: 0\n");

  const Result<RegistryYaml> good_yaml = good.load();
  const Result<RegistryYaml> bad_yaml = bad.load();
  ASSERT_TRUE(good_yaml.has_value());
  ASSERT_TRUE(bad_yaml.has_value());

  EXPECT_EQ(good_yaml->version().value(), 2);
  ASSERT_FALSE(bad_yaml->version().has_value());
  EXPECT_EQ(bad_yaml->version().error().message, "registry: 'version' must be a positive integer, not '0'");
}

TEST(RegistryYaml, KindCheckedChildrenNameTheKeyAndWhatItIs) {
  const RegistryFile file("tools:\n  a: 1\nsteps: x\n");
  const Result<RegistryYaml> yaml = file.load();
  ASSERT_TRUE(yaml.has_value());

  const Result<YAML::Node> tools = yaml->mapping(yaml->root(), "tools", "registry");
  const Result<YAML::Node> steps = yaml->sequence(yaml->root(), "steps", "registry");
  const Result<std::string> missing = yaml->scalar(yaml->root(), "name", "registry");

  EXPECT_TRUE(tools.has_value());
  ASSERT_FALSE(steps.has_value());
  EXPECT_EQ(steps.error().message, "registry: 'steps' must be a list, not a scalar");
  EXPECT_EQ(steps.error().where, file.origin() + ":3");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "registry: 'name' must be a non-empty scalar, not missing");
}

TEST(RegistryYaml, NamesRefuseRepeatsWhileTextsKeepThem) {
  const RegistryFile file("names: [a, b, a]\n");
  const Result<RegistryYaml> yaml = file.load();
  ASSERT_TRUE(yaml.has_value());

  const Result<std::vector<std::string>> names = yaml->names(yaml->root(), "names", "tool t");
  const Result<std::vector<std::string>> texts = yaml->texts(yaml_child(yaml->root(), "names"), "names");

  ASSERT_FALSE(names.has_value());
  EXPECT_EQ(names.error().message, "tool t 'names': 'a' is listed twice");
  ASSERT_TRUE(texts.has_value());
  EXPECT_EQ(*texts, (std::vector<std::string>{"a", "b", "a"}));
}

TEST(RegistryYaml, AbsentListsAndMappingsReadAsEmpty) {
  const RegistryFile file("statuses:\n  open: Open\n  done: Closed\n");
  const Result<RegistryYaml> yaml = file.load();
  ASSERT_TRUE(yaml.has_value());

  const Result<std::vector<std::pair<std::string, std::string>>> statuses =
      yaml->pairs(yaml_child(yaml->root(), "statuses"), "statuses");
  const Result<std::vector<std::pair<std::string, std::string>>> absent =
      yaml->pairs(yaml_child(yaml->root(), "providers"), "providers");
  const Result<std::vector<std::string>> no_texts = yaml->texts(yaml_child(yaml->root(), "dates"), "dates");

  ASSERT_TRUE(statuses.has_value());
  EXPECT_EQ(*statuses,
            (std::vector<std::pair<std::string, std::string>>{{"open", "Open"}, {"done", "Closed"}}));
  ASSERT_TRUE(absent.has_value());
  EXPECT_TRUE(absent->empty());
  ASSERT_TRUE(no_texts.has_value());
  EXPECT_TRUE(no_texts->empty());
}

TEST(RegistryYaml, GuardedTurnsAYamlExceptionIntoAnErrorAtItsLine) {
  const RegistryFile file("version: 1\nlimit: [1, 2]\n");
  const Result<RegistryYaml> yaml = file.load();
  ASSERT_TRUE(yaml.has_value());

  const Result<int> limit = yaml->guarded<int>([&] { return yaml->root()["limit"].as<int>(); });

  ASSERT_FALSE(limit.has_value());
  EXPECT_EQ(limit.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(limit.error().where, file.origin() + ":2");
}

TEST(YamlChild, IsUndefinedForAMissingKeyOrANonMapping) {
  const YAML::Node root = YAML::Load("a: 1\n");
  const YAML::Node list = YAML::Load("[1, 2]");

  EXPECT_EQ(yaml_child(root, "a").Scalar(), "1");
  EXPECT_FALSE(yaml_child(root, "b").IsDefined());
  EXPECT_FALSE(yaml_child(list, "a").IsDefined());
}

TEST(YamlToJson, ReadsPlainScalarsByTheCoreSchemaAndQuotedOnesAsText) {
  const YAML::Node node = YAML::Load("{n: 3, x: 2.5, t: true, z: ~, s: word, q: \"3\", l: [1, two]}");

  const Json json = yaml_to_json(node);

  EXPECT_EQ(json, Json::parse(
                      R"({"n": 3, "x": 2.5, "t": true, "z": null, "s": "word", "q": "3", "l": [1, "two"]})"));
}

}  // namespace
}  // namespace planfirst::core
