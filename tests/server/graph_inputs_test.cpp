// A graph's declared inputs as the server applies them: the assistant lists them, the output folder
// is always the thread's artifacts folder, and only an uploaded file may be the dataset.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "server/server_fixture.hpp"

namespace planfirst::server::testing {
namespace {

std::string sales_csv() {
  std::ifstream file(std::string(PLANFIRST_SOURCE_DIR) + "/examples/sales.csv");
  return std::string(std::istreambuf_iterator<char>(file), {});
}

TEST(ServerGraphInputs, AnAssistantListsTheInputKeysItsGraphDeclares) {
  ServerFixture fixture;

  const json autoviz = fixture.get("/assistants/autoviz");
  const json analyst = fixture.get("/assistants/analyst");

  EXPECT_EQ(autoviz["metadata"]["input"], (json{{"dataset", "dataset"}, {"question", "question"}}));
  EXPECT_EQ(analyst["metadata"]["input"], (json{{"question", "user_query"}}));
}

TEST(ServerGraphInputs, ADatasetThatWasNotUploadedIsRefusedBeforeAnythingRuns) {
  ServerFixture fixture;
  const std::string thread = fixture.post("/threads", json::object())["thread_id"];

  const json refused = fixture.post(
      "/threads/" + thread + "/runs",
      json{{"assistant_id", "autoviz"},
           {"input",
            {{"dataset", std::string(PLANFIRST_SOURCE_DIR) + "/examples/sales.csv"}, {"question", "x"}}}},
      400);

  EXPECT_EQ(refused["error"]["code"], "invalid_argument");
  EXPECT_EQ(refused["error"]["where"], "input/dataset");
  EXPECT_TRUE(fixture.get("/threads/" + thread + "/runs").empty());
}

TEST(ServerGraphInputs, ARunWritesItsFilesUnderTheThreadWhateverTheInputSays) {
  ServerFixture fixture;
  auto upload = fixture.client()->Post("/datasets?name=sales.csv", sales_csv(), "text/csv");
  ASSERT_TRUE(upload && upload->status == 201) << (upload ? upload->body : "no answer");
  const std::string dataset = json::parse(upload->body)["path"];
  const std::filesystem::path elsewhere = fixture.dir() / "elsewhere";
  const std::string thread = fixture.post("/threads", json::object())["thread_id"];

  const json outcome =
      fixture.post("/threads/" + thread + "/runs/wait", json{{"assistant_id", "autoviz"},
                                                             {"input",
                                                              {{"dataset", dataset},
                                                               {"question", "total revenue by region"},
                                                               {"out_dir", elsewhere.string()}}}});
  const json artifacts = fixture.get("/threads/" + thread + "/artifacts");

  EXPECT_EQ(outcome["status"], "success") << outcome.dump();
  EXPECT_FALSE(std::filesystem::exists(elsewhere));
  bool plan = false;
  for (const json& artifact : artifacts) plan |= artifact["path"] == "plan.json";
  EXPECT_TRUE(plan) << artifacts.dump();
}

}  // namespace
}  // namespace planfirst::server::testing
