// Operations: API keys, body and rate limits, /metrics, /openapi.json against the routes, dataset
// uploads (size and type checks), artifact downloads that never leave the thread's folder, and a
// graceful stop that leaves a running run to be resumed from its last checkpoint by the next start.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "server/access_guard.hpp"
#include "server/api.hpp"
#include "server_fixture.hpp"

namespace planfirst::server::testing {
namespace {

TEST(ServerOperations, ApiKeysAreRequiredExceptForHealthz) {
  ServerOptions options;
  options.api.api_keys = parse_api_keys("alpha, beta");
  ServerFixture fixture(options);
  auto client = fixture.client();

  auto without = client->Post("/assistants/search", "{}", "application/json");
  auto wrong = client->Post("/assistants/search", {{"X-Api-Key", "alphx"}}, "{}", "application/json");
  auto header = client->Post("/assistants/search", {{"X-Api-Key", "beta"}}, "{}", "application/json");
  auto bearer =
      client->Post("/assistants/search", {{"Authorization", "Bearer alpha"}}, "{}", "application/json");
  auto health = client->Get("/healthz");

  ASSERT_TRUE(without && wrong && header && bearer && health);
  EXPECT_EQ(without->status, 401);
  EXPECT_EQ(json::parse(without->body)["error"]["code"], "unauthorized");
  EXPECT_EQ(wrong->status, 401);
  EXPECT_EQ(header->status, 200);
  EXPECT_EQ(bearer->status, 200);
  EXPECT_EQ(health->status, 200);
}

TEST(ServerOperations, ConstantTimeEqualsComparesWholeStrings) {
  EXPECT_TRUE(constant_time_equals("secret", "secret"));
  EXPECT_FALSE(constant_time_equals("secreT", "secret"));
  EXPECT_FALSE(constant_time_equals("secret1", "secret"));
  EXPECT_FALSE(constant_time_equals("", "secret"));
}

TEST(ServerOperations, ABodyOverTheLimitIsPayloadTooLarge) {
  ServerOptions options;
  options.api.max_body_bytes = 64;
  ServerFixture fixture(options);

  auto response = fixture.client()->Post(
      "/threads", json{{"metadata", {{"note", std::string(200, 'x')}}}}.dump(), "application/json");

  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 413);
  EXPECT_EQ(json::parse(response->body)["error"]["code"], "payload_too_large");
}

TEST(ServerOperations, TheRateLimitAnswers429WithRetryAfter) {
  ServerOptions options;
  options.api.rate_per_second = 0.001;
  options.api.rate_burst = 2;
  ServerFixture fixture(options);
  auto client = fixture.client();

  auto first = client->Get("/healthz");
  auto second = client->Get("/healthz");
  auto third = client->Get("/healthz");

  ASSERT_TRUE(first && second && third);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(second->status, 200);
  EXPECT_EQ(third->status, 429);
  EXPECT_EQ(json::parse(third->body)["error"]["code"], "rate_limited");
  EXPECT_FALSE(third->get_header_value("Retry-After").empty());
}

TEST(ServerOperations, MetricsArePrometheusTextWithRunsAndSteps) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("reference");
  fixture.post("/threads/" + thread + "/runs/wait", json{{"assistant_id", "reference"}});

  auto response = fixture.client()->Get("/metrics");

  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 200);
  EXPECT_NE(response->body.find("planfirst_server_runs_total{status=\"success\"} 1"), std::string::npos)
      << response->body;
  EXPECT_NE(response->body.find("planfirst_server_steps_total{assistant=\"reference\"}"), std::string::npos);
  EXPECT_NE(response->body.find("# TYPE planfirst_server_request_seconds histogram"), std::string::npos);
}

TEST(ServerOperations, TheOpenApiDocumentNamesExactlyTheImplementedRoutes) {
  ServerFixture fixture;

  const json document = fixture.get("/openapi.json");

  std::set<std::string> documented;
  for (const auto& [path, operations] : document["paths"].items()) {
    for (const auto& [method, operation] : operations.items()) {
      std::string upper;
      for (char c : method) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      documented.insert(upper + " " + path);
    }
  }
  std::set<std::string> implemented;
  for (const Route& route : Api::routes()) implemented.insert(route.method + " " + route.path);
  EXPECT_EQ(documented, implemented);
}

TEST(ServerOperations, ADatasetUploadIsStoredAndCheckedBySizeAndType) {
  ServerOptions options;
  options.api.max_upload_bytes = 1024;
  ServerFixture fixture(options);
  auto client = fixture.client();

  auto csv = client->Post("/datasets?name=contacts.csv", "id,channel\n1,phone\n", "text/csv");
  auto exe = client->Post("/datasets?name=tool.exe", "MZ", "application/octet-stream");
  auto parquet = client->Post("/datasets?name=fake.parquet", "id,channel\n", "application/octet-stream");
  auto binary = client->Post("/datasets?name=data.csv", std::string("a,b\n\xff\xfe\n"), "text/csv");
  auto large = client->Post("/datasets?name=big.csv", std::string(2048, 'a'), "text/csv");
  auto traversal = client->Post("/datasets?name=..%2Fx.csv", "a\n", "text/csv");

  ASSERT_TRUE(csv && exe && parquet && binary && large && traversal);
  ASSERT_EQ(csv->status, 201) << csv->body;
  const json stored = json::parse(csv->body);
  EXPECT_EQ(stored["type"], "csv");
  std::ifstream file(stored["path"].get<std::string>());
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(file), {}), "id,channel\n1,phone\n");
  EXPECT_EQ(exe->status, 415);
  EXPECT_EQ(parquet->status, 415);
  EXPECT_EQ(binary->status, 415);
  EXPECT_EQ(large->status, 413);
  EXPECT_EQ(traversal->status, 400);
}

TEST(ServerOperations, BundledExamplesAreListedAndCopiedIntoTheDatasetsFolder) {
  test_support::TempDir examples;
  examples.write("contacts.csv", "contact_id,channel\n1,phone\n");
  examples.write("extra.csv", "a\n1\n");
  examples.write("notes.txt", "not a dataset");
  ServerOptions options;
  options.api.examples_dir = examples.path();
  ServerFixture fixture(options);
  auto client = fixture.client();

  const json list = fixture.get("/examples");
  auto copied = client->Post("/examples/contacts.csv/dataset", "", "application/json");
  auto missing = client->Post("/examples/sales.csv/dataset", "", "application/json");
  auto unknown = client->Post("/examples/notes.txt/dataset", "", "application/json");
  auto climbing = client->Post("/examples/..%2Fcontacts.csv/dataset", "", "application/json");
  auto dots = client->Post("/examples/../dataset", "", "application/json");

  ASSERT_EQ(list.size(), 3u) << list.dump();
  EXPECT_EQ(list[0]["name"], "contacts.csv");
  EXPECT_EQ(list[0]["available"], true);
  EXPECT_EQ(list[0]["assistant_id"], "friction");
  EXPECT_EQ(list[0]["bytes"], 27);
  EXPECT_EQ(list[1]["name"], "sales.csv");
  EXPECT_EQ(list[1]["available"], false);
  EXPECT_NE(list[1]["how_to_get"].get<std::string>().find("examples/"), std::string::npos) << list.dump();
  EXPECT_EQ(list[2]["name"], "extra.csv");  // a dataset file the catalogue does not name
  ASSERT_TRUE(copied && missing && unknown);
  ASSERT_EQ(copied->status, 201) << copied->body;
  const json stored = json::parse(copied->body);
  EXPECT_EQ(stored["example"], "contacts.csv");
  EXPECT_EQ(stored["type"], "csv");
  const std::filesystem::path path = stored["path"].get<std::string>();
  EXPECT_EQ(path.parent_path().parent_path(), fixture.dir() / "data" / "datasets");
  std::ifstream file(path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(file), {}), "contact_id,channel\n1,phone\n");
  EXPECT_EQ(missing->status, 404);
  EXPECT_NE(json::parse(missing->body)["error"]["message"].get<std::string>().find("is missing"),
            std::string::npos);
  EXPECT_EQ(unknown->status, 404);
  // A name that climbs out of the folder matches no route or no id: a JSON error, nothing copied.
  ASSERT_TRUE(climbing && dots);
  EXPECT_EQ(climbing->status, 404) << climbing->body;
  EXPECT_EQ(json::parse(climbing->body)["error"]["code"], "no_route");
  EXPECT_EQ(dots->status, 400) << dots->body;
  EXPECT_EQ(json::parse(dots->body)["error"]["where"], "name");
  const auto copies = std::filesystem::directory_iterator(fixture.dir() / "data" / "datasets");
  EXPECT_EQ(std::distance(std::filesystem::begin(copies), std::filesystem::end(copies)), 1);
  // The copy is a dataset of the server's: a run may read it.
  const std::string thread = fixture.thread("autoviz");
  auto run = client->Post(("/threads/" + thread + "/runs").c_str(),
                          json{{"assistant_id", "autoviz"}, {"input", {{"dataset", path.string()}}}}.dump(),
                          "application/json");
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, 200) << run->body;
}

TEST(ServerOperations, ArtifactsAreServedFromTheThreadsFolderOnly) {
  ServerFixture fixture;
  const std::string thread = fixture.thread("reference");
  const std::filesystem::path root = fixture.dir() / "data" / "artifacts" / thread;
  std::filesystem::create_directories(root / "charts");
  std::ofstream(root / "report.md") << "# report\n";
  std::ofstream(root / "charts" / "c1.svg") << "<svg/>";
  std::ofstream(fixture.dir() / "data" / "secret.txt") << "the-secret-content";
  std::filesystem::create_symlink(fixture.dir() / "data" / "secret.txt", root / "link.txt");
  auto client = fixture.client();
  const std::string base = "/threads/" + thread + "/artifacts/";

  const json listed = fixture.get("/threads/" + thread + "/artifacts");
  auto report = client->Get((base + "report.md").c_str());
  auto nested = client->Get((base + "charts/c1.svg").c_str());
  auto dots = client->Get((base + "../../secret.txt").c_str());
  auto encoded = client->Get((base + "..%2F..%2Fsecret.txt").c_str());
  auto absolute = client->Get((base + "%2Fetc%2Fpasswd").c_str());
  auto link = client->Get((base + "link.txt").c_str());
  auto missing = client->Get((base + "nosuch.md").c_str());

  EXPECT_EQ(listed,
            json::parse(R"([{"path": "charts/c1.svg", "bytes": 6}, {"path": "report.md", "bytes": 9}])"));
  ASSERT_TRUE(report && nested && dots && encoded && absolute && link && missing);
  EXPECT_EQ(report->status, 200);
  EXPECT_EQ(report->body, "# report\n");
  EXPECT_EQ(nested->get_header_value("Content-Type"), "image/svg+xml");
  for (const auto* refused : {&dots, &encoded, &absolute, &link}) {
    EXPECT_NE((*refused)->status, 200) << (*refused)->body;
    EXPECT_EQ((*refused)->body.find("the-secret-content"), std::string::npos);
  }
  EXPECT_EQ(link->status, 400);
  EXPECT_EQ(missing->status, 404);
}

TEST(ServerOperations, StaticFilesOfTheWebPageAreServedWithIndexFallback) {
  test_support::TempDir web;
  web.write("index.html", "<html>page</html>");
  web.write("app.js", "console.log(1)");
  ServerOptions options;
  options.api.web_dir = web.path();
  ServerFixture fixture(options);
  auto client = fixture.client();

  auto index = client->Get("/");
  auto script = client->Get("/app.js");
  auto route = client->Get("/threads-view");
  auto escape = client->Get("/..%2F..%2Fetc%2Fpasswd");

  ASSERT_TRUE(index && script && route && escape);
  EXPECT_EQ(index->body, "<html>page</html>");
  EXPECT_EQ(script->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(route->body, "<html>page</html>");
  EXPECT_NE(escape->status, 200);
}

// Starts a run of the gated graph and stops the server gracefully while its first node runs; the
// node in flight finishes and the next one waits for the next start. The run's path.
std::string stop_during_the_first_node(ServerFixture& fixture) {
  const std::string thread = fixture.thread("gated");
  const json run = fixture.post("/threads/" + thread + "/runs", json{{"assistant_id", "gated"}});
  fixture.gate.wait_entered(1);
  std::thread stopping([&] { fixture.stop(); });
  while (!fixture.server().stopping()) std::this_thread::yield();
  fixture.gate.release();
  stopping.join();
  return "/threads/" + thread + "/runs/" + run["run_id"].get<std::string>();
}

TEST(ServerOperations, AGracefulStopLeavesARunningRunToResumeFromItsLastCheckpoint) {
  ServerFixture fixture;
  const std::string run_path = stop_during_the_first_node(fixture);
  fixture.open();
  const json joined = fixture.get(run_path + "/join");
  const std::vector<Event> events = parse_sse(fixture.stream(run_path + "/stream"));

  EXPECT_EQ(joined["status"], "success") << joined.dump();
  EXPECT_EQ(joined["attempt"], 2);
  EXPECT_EQ(joined["values"], json({{"first", true}, {"second", true}}));
  int first_updates = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].id, static_cast<std::int64_t>(i + 1));
    if (events[i].event == "updates" && events[i].data.contains("first")) ++first_updates;
  }
  EXPECT_EQ(first_updates, 1) << "the first node ran once";
  EXPECT_EQ(events.back().event, "end");
}

TEST(ServerOperations, EventsTotalCountsOnlyEventsTheLogDidNotHoldYet) {
  ServerFixture fixture;
  const std::string run_path = stop_during_the_first_node(fixture);

  fixture.open();  // the run is taken up again and re-sends its metadata event, which the log holds
  fixture.get(run_path + "/join");
  auto response = fixture.client()->Get("/metrics");

  ASSERT_TRUE(response);
  EXPECT_NE(response->body.find("planfirst_server_events_total{event=\"end\"} 1"), std::string::npos)
      << response->body;
  EXPECT_EQ(response->body.find("planfirst_server_events_total{event=\"metadata\"}"), std::string::npos)
      << response->body;
}

}  // namespace
}  // namespace planfirst::server::testing
