// planfirst ask leads with the answer: on the terminal, in --json and in the reports, checked against
// figures this test computes from examples/sales.csv itself.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

namespace fs = std::filesystem;

// examples/sales.csv's rows as maps of column to text (the file quotes no field).
std::vector<std::map<std::string, std::string>> sales_rows() {
  std::istringstream lines(read_text(source("examples/sales.csv")));
  std::string line;
  std::getline(lines, line);
  std::vector<std::string> header;
  std::istringstream names(line);
  for (std::string name; std::getline(names, name, ',');) header.push_back(name);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::map<std::string, std::string> row;
    std::string field;
    for (std::size_t c = 0; c < header.size() && std::getline(fields, field, ','); ++c)
      row[header[c]] = field;
    rows.push_back(std::move(row));
  }
  return rows;
}

// A decimal with two places ("671.5", "23.17") in cents, exactly.
std::int64_t cents(const std::string& text) {
  const std::size_t point = text.find('.');
  const std::string whole = text.substr(0, point);
  std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
  fraction = (fraction + "00").substr(0, 2);
  return std::stoll(whole) * 100 + std::stoll(fraction);
}

// 1234567 -> "1,234,567".
std::string grouped(std::int64_t value) {
  std::string digits = std::to_string(value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

class AskAnswer : public ::testing::Test {
 protected:
  // stdout of `planfirst ask` on the sales example, progress on stderr left out.
  CommandOutcome ask(const std::string& question, const std::string& extra = "") const {
    return run_command("(" +
                       planfirst("ask " + source("examples/sales.csv") + " \"" + question + "\" --out " +
                                 out() + " --checkpointer memory: " + extra) +
                       " 2>/dev/null)");
  }
  std::string out() const { return (dir_.path() / "out").string(); }
  test_support::TempDir dir_;
};

constexpr const char* kCountQuestion = "how many orders were placed in the West region in 2024";

std::size_t west_orders_in_2024() {
  std::size_t count = 0;
  for (const auto& row : sales_rows())
    count += row.at("region") == "West" && row.at("date").starts_with("2024-");
  return count;
}

TEST_F(AskAnswer, ACountQuestionPrintsItsNumberInASentenceBeforeThePlan) {
  const std::string expected = "Answer: " + grouped(static_cast<std::int64_t>(west_orders_in_2024())) +
                               " (count of rows where date in 2024 and region = West)\n";

  const CommandOutcome run = ask(kCountQuestion);

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::size_t answer = run.output.find(expected);
  ASSERT_NE(answer, std::string::npos) << run.output;
  EXPECT_LT(answer, run.output.find("\nRequirements\n"));
  EXPECT_LT(answer, run.output.find("\nPlan\n"));
  EXPECT_EQ(run.output.find("Data: "), run.output.find('\n') + 1);  // Question, Data, then the answer
}

TEST_F(AskAnswer, JsonKeepsItsMembersAndAddsTheAnswer) {
  const CommandOutcome run = ask(kCountQuestion, "--json");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  for (const char* key :
       {"question", "requirements", "plan", "coverage", "execution", "artifacts", "outcome"})
    EXPECT_TRUE(result.contains(key)) << key;
  EXPECT_EQ(result["answer"]["value"], west_orders_in_2024());
  EXPECT_EQ(result["answer"]["row_count"], 1);
  EXPECT_EQ(result["answer"]["description"], "count of rows where date in 2024 and region = West");
}

TEST_F(AskAnswer, ATableAnswerShowsItsRowsRoundedWithTheirCount) {
  std::map<std::string, std::int64_t> revenue;  // region -> cents in 2024
  for (const auto& row : sales_rows()) {
    if (row.at("date").starts_with("2024-")) revenue[row.at("region")] += cents(row.at("revenue"));
  }

  const CommandOutcome run = ask("total revenue by region in 2024");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("Answer: sum of revenue by region where date in 2024 (" +
                            std::to_string(revenue.size()) + " rows)\n"),
            std::string::npos)
      << run.output;
  int decimals = 0;  // the column shows every total with the most decimals any needs, up to two
  for (const auto& [region, total] : revenue)
    decimals = std::max(decimals, total % 10 != 0 ? 2 : total % 100 != 0);
  for (const auto& [region, total] : revenue) {
    std::string shown = total / 100 >= 10000 ? grouped(total / 100) : std::to_string(total / 100);
    if (decimals > 0)
      shown += fmt::format(".{:02}", total % 100).substr(0, static_cast<std::size_t>(decimals) + 1);
    const std::size_t line = run.output.find("  " + region + " ");
    ASSERT_NE(line, std::string::npos) << region << "\n" << run.output;
    EXPECT_EQ(run.output.substr(line, run.output.find('\n', line) - line).ends_with(" " + shown), true)
        << region << " " << shown << "\n"
        << run.output;
    EXPECT_LT(line, run.output.find("\nPlan\n"));
  }
  EXPECT_NE(
      run.output.find("  " + std::to_string(revenue.size()) + " rows; all in " + out() + "/result.csv\n"),
      std::string::npos)
      << run.output;
}

TEST_F(AskAnswer, ReportHtmlPutsTheAnswerBeforeThePlanWhichIsCollapsed) {
  const CommandOutcome run = ask(kCountQuestion);
  ASSERT_EQ(run.exit_code, 0) << run.output;

  const std::string page = read_text(fs::path(out()) / "report.html");

  const std::size_t answer = page.find("<section class=\"answer\"");
  const std::size_t how = page.find("<details class=\"how\"");
  const std::size_t headline =
      page.find("Answer: " + grouped(static_cast<std::int64_t>(west_orders_in_2024())) +
                " (count of rows where date in 2024");
  ASSERT_NE(answer, std::string::npos);
  ASSERT_NE(how, std::string::npos);
  EXPECT_LT(answer, headline);
  EXPECT_LT(headline, how);
  EXPECT_LT(how, page.find("<h2>Requirements</h2>"));
  EXPECT_LT(how, page.find("<h2>Coverage</h2>"));
  const std::string markdown = read_text(fs::path(out()) / "report.md");
  EXPECT_LT(markdown.find("## Answer"), markdown.find("## Requirements"));
}

}  // namespace
}  // namespace planfirst::e2e
