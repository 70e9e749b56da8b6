// Scale-out on PostgreSQL: two server processes (tests/server/child/server_child) share one throwaway
// PostgreSQL for checkpoints, runs and event logs. Killing the process that runs a run hands it to
// the other once its lease runs out; it continues from the last checkpoint, and a client that
// reconnects there with Last-Event-ID gets the rest of the log with no event lost or repeated.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "graph/child/child_process.hpp"
#include "server_fixture.hpp"
#include "support/postgres_server.hpp"

namespace planfirst::server::testing {
namespace {

using graph::testing::ChildProcess;

bool wait_for_file(const std::filesystem::path& file, std::chrono::seconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (!std::filesystem::exists(file)) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

int read_port(const std::filesystem::path& file) {
  std::ifstream in(file);
  int port = 0;
  in >> port;
  return port;
}

json get_json(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  auto response = client.Get(path.c_str());
  if (!response || response->status != 200) throw std::runtime_error("GET " + path + " failed");
  return json::parse(response->body);
}

TEST(ServerScaleOut, AKilledProcesssRunIsTakenOverAndItsStreamGoesOnWithoutLossOrRepeat) {
  std::string failure;
  std::unique_ptr<test_support::PostgresServer> postgres = test_support::PostgresServer::start(&failure);
  ASSERT_NE(postgres, nullptr) << failure;
  test_support::TempDir dir;
  std::filesystem::create_directories(dir.path() / "gate");
  auto child = [&](const std::string& name) {
    return std::make_unique<ChildProcess>(
        std::vector<std::string>{PLANFIRST_SERVER_CHILD, postgres->uri(),
                                 (dir.path() / (name + ".port")).string(), "800"},
        dir.path() / (name + ".out"));
  };
  std::unique_ptr<ChildProcess> a = child("a");
  ASSERT_TRUE(wait_for_file(dir.path() / "a.port", std::chrono::seconds(30))) << a->errors();
  std::unique_ptr<ChildProcess> b = child("b");
  ASSERT_TRUE(wait_for_file(dir.path() / "b.port", std::chrono::seconds(30))) << b->errors();
  const int port_a = read_port(dir.path() / "a.port");
  const int port_b = read_port(dir.path() / "b.port");
  httplib::Client client_a("127.0.0.1", port_a);
  auto thread = client_a.Post("/threads", json{{"assistant_id", "file_gated"}}.dump(), "application/json");
  ASSERT_TRUE(thread && thread->status == 200);
  const std::string thread_id = json::parse(thread->body)["thread_id"];
  auto run = client_a.Post(("/threads/" + thread_id + "/runs").c_str(),
                           json{{"input", {{"gate_dir", (dir.path() / "gate").string()}}}}.dump(),
                           "application/json");
  ASSERT_TRUE(run && run->status == 200) << (run ? run->body : "");
  const std::string run_path =
      "/threads/" + thread_id + "/runs/" + json::parse(run->body)["run_id"].get<std::string>();
  ASSERT_TRUE(wait_for_file(dir.path() / "gate" / "entered", std::chrono::seconds(30)));
  const std::string holder = get_json(port_a, run_path)["worker_id"];
  const bool a_holds = holder == get_json(port_a, "/healthz")["worker_id"];
  ChildProcess& killed = a_holds ? *a : *b;
  const int survivor = a_holds ? port_b : port_a;
  const int doomed = a_holds ? port_a : port_b;

  std::vector<Event> before;
  std::thread reader([&] {
    httplib::Client client("127.0.0.1", doomed);
    std::string body;
    client.Get(run_path + "/stream", [&](const char* data, std::size_t size) {
      body.append(data, size);
      return true;
    });
    before = parse_sse(body.substr(0, body.rfind("\n\n") == std::string::npos ? 0 : body.rfind("\n\n") + 2));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the stream has sent what the log holds
  killed.kill_now();
  killed.wait();
  reader.join();
  std::ofstream(dir.path() / "gate" / "open") << "open";
  ASSERT_FALSE(before.empty());
  httplib::Client client("127.0.0.1", survivor);
  client.set_read_timeout(std::chrono::seconds(60));
  auto rest =
      client.Get((run_path + "/stream").c_str(), {{"Last-Event-ID", std::to_string(before.back().id)}});
  ASSERT_TRUE(rest && rest->status == 200);
  std::vector<Event> events = before;
  for (const Event& event : parse_sse(rest->body)) events.push_back(event);
  const json final_run = get_json(survivor, run_path);

  for (std::size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events[i].id, static_cast<std::int64_t>(i + 1));
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().event, "end");
  EXPECT_EQ(events.back().data["run_status"], "success") << events.back().data.dump();
  int first_updates = 0;
  int at_gate = 0;
  for (const Event& event : events) {
    if (event.event == "updates" && event.data.contains("first")) ++first_updates;
    if (event.event == "custom" && event.data["message"] == "at the gate") ++at_gate;
  }
  EXPECT_EQ(first_updates, 1);
  EXPECT_EQ(at_gate, 1) << "the taken-over node's progress was logged once";
  EXPECT_EQ(final_run["status"], "success");
  EXPECT_EQ(final_run["attempt"], 2);
  EXPECT_NE(final_run["worker_id"], holder);
}

}  // namespace
}  // namespace planfirst::server::testing
