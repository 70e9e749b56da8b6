// The shipped prompts: every template loads, renders with its declared variables, and every example
// answer it embeds meets its contract. Plus the template rules on variables.
#include "llm/prompt_library.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "contracts/contract_registry.hpp"
#include "llm/model_fixture.hpp"

namespace planfirst::llm {
namespace {

PromptLibrary builtin_prompts() {
  core::Result<PromptLibrary> library = PromptLibrary::load(core::AssetStore());
  if (!library) throw std::runtime_error(library.error().describe());
  return std::move(*library);
}

TEST(PromptLibrary, ShipsTheSeedPrompts) {
  const PromptLibrary library = builtin_prompts();

  const std::vector<std::string> names = library.names();

  EXPECT_EQ(names,
            (std::vector<std::string>{"adapt_plan", "analyst_plan", "extract_requirements", "intent"}));
}

TEST(PromptLibrary, RendersEveryTemplateAndEveryExampleMeetsItsContract) {
  const PromptLibrary library = builtin_prompts();

  for (const std::string& name : library.names()) {
    const PromptTemplate& prompt = **library.get(name);
    PromptVariables values;
    for (const std::string& variable : prompt.variables())
      values[variable] = "<" + variable + " & \"value\">";
    core::Result<std::string> rendered = prompt.render(values);
    ASSERT_TRUE(rendered.has_value()) << name << ": " << rendered.error().describe();
    for (const std::string& variable : prompt.variables()) {
      EXPECT_NE(rendered->find("<" + variable + " & \"value\">"), std::string::npos)
          << name << " " << variable;
    }
    EXPECT_EQ(rendered->find("{{"), std::string::npos) << name;

    ASSERT_FALSE(prompt.contract().empty()) << name;
    const contracts::Contract* contract = builtin_contracts().find(prompt.contract());
    ASSERT_NE(contract, nullptr) << name << " names contract " << prompt.contract();
    const std::vector<std::string> examples = prompt.examples();
    EXPECT_FALSE(examples.empty()) << name << " has no example answer";
    for (const std::string& example : examples) {
      const nlohmann::json value = nlohmann::json::parse(example, nullptr, false);
      ASSERT_FALSE(value.is_discarded()) << name << ": example is not JSON:\n" << example;
      const contracts::ValidationReport report = contract->validate(value);
      EXPECT_TRUE(report.ok()) << name << ":\n" << report.describe();
    }
  }
}

TEST(PromptLibrary, KeepsTheSeedAnalystRules) {
  const PromptLibrary library = builtin_prompts();

  core::Result<std::string> rendered =
      library.render("analyst_plan", {{"user_query", "What's the sprint completion rate?"}});

  ASSERT_TRUE(rendered.has_value());
  EXPECT_EQ(rendered->rfind("You are BMAD Analyst.", 0), 0u);
  EXPECT_NE(rendered->find("required_sources MUST include \"db\" and MUST NOT include \"doc\""),
            std::string::npos);
  EXPECT_NE(rendered->find("User query: What's the sprint completion rate?"), std::string::npos);
}

TEST(PromptLibrary, NamesTheKnownPromptsWhenOneIsMissing) {
  const PromptLibrary library = builtin_prompts();

  core::Result<const PromptTemplate*> prompt = library.get("summarize");

  ASSERT_FALSE(prompt.has_value());
  EXPECT_EQ(prompt.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(prompt.error().message.find("analyst_plan"), std::string::npos);
}

constexpr const char* kTemplate = "---\nname: t\ncontract: intent\nvariables: a, b\n---\nA={{{a}}} B={{b}}\n";

TEST(PromptTemplate, SubstitutesWithoutEscaping) {
  core::Result<PromptTemplate> prompt = PromptTemplate::parse(kTemplate, "t.md");
  ASSERT_TRUE(prompt.has_value()) << prompt.error().describe();

  core::Result<std::string> rendered = prompt->render({{"a", "<x>"}, {"b", "\"y\" & z"}});

  ASSERT_TRUE(rendered.has_value());
  EXPECT_EQ(*rendered, "A=<x> B=\"y\" & z\n");
}

TEST(PromptTemplate, RefusesAMissingVariable) {
  core::Result<PromptTemplate> prompt = PromptTemplate::parse(kTemplate, "t.md");
  ASSERT_TRUE(prompt.has_value());

  core::Result<std::string> rendered = prompt->render({{"a", "1"}});

  ASSERT_FALSE(rendered.has_value());
  EXPECT_NE(rendered.error().message.find("missing variable \"b\""), std::string::npos)
      << rendered.error().message;
}

TEST(PromptTemplate, RefusesAnUnknownVariable) {
  core::Result<PromptTemplate> prompt = PromptTemplate::parse(kTemplate, "t.md");
  ASSERT_TRUE(prompt.has_value());

  core::Result<std::string> rendered = prompt->render({{"a", "1"}, {"b", "2"}, {"c", "3"}});

  ASSERT_FALSE(rendered.has_value());
  EXPECT_NE(rendered.error().message.find("unknown variable \"c\""), std::string::npos);
}

TEST(PromptTemplate, RefusesATagForAnUndeclaredVariableAndNamesItsLine) {
  const std::string text = "---\nname: t\nvariables: a\n---\nfirst {{{a}}}\nsecond {{{oops}}}\n";

  core::Result<PromptTemplate> prompt = PromptTemplate::parse(text, "t.md");

  ASSERT_FALSE(prompt.has_value());
  EXPECT_NE(prompt.error().message.find("undeclared variable \"oops\""), std::string::npos);
  EXPECT_EQ(prompt.error().where, "t.md:6");
}

TEST(PromptTemplate, RefusesATemplateWithoutFrontMatter) {
  core::Result<PromptTemplate> prompt = PromptTemplate::parse("Hello {{{a}}}", "t.md");

  ASSERT_FALSE(prompt.has_value());
  EXPECT_EQ(prompt.error().where, "t.md:1");
}

}  // namespace
}  // namespace planfirst::llm
