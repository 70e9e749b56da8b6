// The committed example dataset must be exactly what its generator writes: same seed, same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "e2e/command_runner.hpp"

namespace planfirst::e2e {
namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST(SalesExample, GeneratorReproducesTheCommittedFileByteForByte) {
  const auto out = std::filesystem::temp_directory_path() / "planfirst_sales_regenerated.csv";

  const CommandOutcome run = run_command(binary("examples/sales_generator") + " " + out.string());

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string regenerated = slurp(out);
  std::filesystem::remove(out);
  EXPECT_GT(std::count(regenerated.begin(), regenerated.end(), '\n'), 50000);
  EXPECT_TRUE(regenerated == slurp(source("examples/sales.csv")))
      << "examples/sales.csv is stale: run build/examples/sales_generator examples/sales.csv";
}

}  // namespace
}  // namespace planfirst::e2e
