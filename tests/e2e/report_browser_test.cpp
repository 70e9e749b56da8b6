// report.html as a user sees it: Debian's chromium (scripts/bootstrap installs it) draws the report of
// a real ask headless at 1280x900; the screenshot is kept as test-artifacts/report.png under the build
// folder, and the page's DOM as chromium parsed it must lead with the answer.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

namespace fs = std::filesystem;

// The screenshot chromium takes of `page`, kept as `png`; its size in bytes, 0 when none was written.
std::uintmax_t screenshot(const fs::path& page, const fs::path& png, const fs::path& profile) {
  fs::remove(png);
  const CommandOutcome run =
      run_command(fmt::format("timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
                              "--user-data-dir={} --window-size=1280,900 --screenshot={} file://{}",
                              profile.string(), png.string(), page.string()));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return fs::exists(png) ? fs::file_size(png) : 0;
}

// A PNG's width and height, from its IHDR chunk.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& bytes) {
  const auto be32 = [&bytes](std::size_t at) {
    std::uint32_t value = 0;
    for (std::size_t i = 0; i < 4; ++i) value = value << 8 | static_cast<unsigned char>(bytes.at(at + i));
    return value;
  };
  return {be32(16), be32(20)};
}

TEST(ReportBrowser, ChromiumDrawsTheReportLeadingWithTheAnswer) {
  const test_support::TempDir dir;
  const fs::path out = dir.path() / "out";
  ASSERT_EQ(run_command("command -v chromium").exit_code, 0) << "chromium not found: run scripts/bootstrap";
  const CommandOutcome run = run_command(planfirst("ask " + source("examples/sales.csv") +
                                                   " \"total revenue by region in 2024\" --out " +
                                                   out.string() + " --checkpointer memory:"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const fs::path artifacts = fs::path(binary("test-artifacts"));
  fs::create_directories(artifacts);
  const fs::path blank = dir.write("blank.html", "<!DOCTYPE html><html><body></body></html>");
  const fs::path report = out / "report.html";

  const std::uintmax_t blank_bytes = screenshot(blank, dir.path() / "blank.png", dir.path() / "profile");
  const std::uintmax_t report_bytes = screenshot(report, artifacts / "report.png", dir.path() / "profile");
  const CommandOutcome dom = run_command(
      fmt::format("(timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir={} "
                  "--dump-dom file://{} 2>/dev/null)",
                  (dir.path() / "profile").string(), report.string()));

  ASSERT_GT(blank_bytes, 0u);
  ASSERT_GT(report_bytes, 0u);
  EXPECT_GT(report_bytes, 10 * blank_bytes);  // text, a chart and a table, not an empty page
  const std::string png = read_text(artifacts / "report.png");
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_EQ(png_size(png), std::make_pair(1280u, 900u));
  ASSERT_EQ(dom.exit_code, 0) << dom.output;
  const std::size_t answer = dom.output.find("<section class=\"answer\"");
  ASSERT_NE(answer, std::string::npos) << dom.output;
  EXPECT_LT(answer, dom.output.find("<details class=\"how\" id=\"how\">"));  // parsed in order, closed
  EXPECT_LT(answer, dom.output.find("<table>"));
}

}  // namespace
}  // namespace planfirst::e2e
