// server_load: measures a running `planfirst serve` over loopback, as a client does.
//   server_load --port P [--assistant retrieval] [--input JSON] [--clients 50] [--seconds 60]
//               [--latency-runs 300] [--stream-seconds 10]
// 1. latency: sequential runs through POST /threads/{id}/runs/wait (p50/p99 per run and per step),
//    and the gaps between consecutive `updates` events as a client sees them on the stream;
// 2. events/s on one SSE connection: runs streamed back to back, and finished runs replayed;
// 3. load: `clients` threads for `seconds`, each creating threads and streaming runs, dropping every
//    third stream midway and reconnecting with Last-Event-ID; every run's received ids are checked
//    against its full log: lost, duplicated or out-of-order events are counted (must be 0).
// Figures only; no pass/fail beyond the exit code 1 when an event was lost or repeated.
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Options {
  int port = 8123;
  std::string assistant = "retrieval";
  json input = json{{"question", "open merge requests in project alpha last week"}, {"plan_only", true}};
  int clients = 50;
  int seconds = 60;
  int latency_runs = 300;
  int stream_seconds = 10;
};

struct Frame {
  long long id = 0;
  std::string event;
  std::string data;
};

// Splits SSE text into frames as bytes arrive; keeps a partial frame for the next chunk.
class FrameReader {
 public:
  std::vector<Frame> feed(const char* data, std::size_t size) {
    buffer_.append(data, size);
    std::vector<Frame> frames;
    std::size_t end;
    while ((end = buffer_.find("\n\n")) != std::string::npos) {
      std::string block = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      Frame frame;
      std::size_t start = 0;
      while (start <= block.size()) {
        std::size_t line_end = block.find('\n', start);
        if (line_end == std::string::npos) line_end = block.size();
        const std::string line = block.substr(start, line_end - start);
        if (line.rfind("id: ", 0) == 0) frame.id = std::stoll(line.substr(4));
        if (line.rfind("event: ", 0) == 0) frame.event = line.substr(7);
        if (line.rfind("data: ", 0) == 0) frame.data = line.substr(6);
        start = line_end + 1;
      }
      if (frame.id != 0) frames.push_back(std::move(frame));
    }
    return frames;
  }

 private:
  std::string buffer_;
};

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t index =
      std::min(values.size() - 1, static_cast<std::size_t>(p * static_cast<double>(values.size())));
  return values[index];
}

std::string new_thread(httplib::Client& client) {
  auto response = client.Post("/threads", "{}", "application/json");
  if (!response || response->status != 200) throw std::runtime_error("POST /threads failed");
  return json::parse(response->body)["thread_id"].get<std::string>();
}

// Streams a new run on `thread`; stops reading after `stop_after` frames (0: to the end).
std::vector<Frame> stream_run(httplib::Client& client, const Options& options, const std::string& thread,
                              std::size_t stop_after, std::vector<double>* update_gaps = nullptr) {
  httplib::Request request;
  request.method = "POST";
  request.path = "/threads/" + thread + "/runs/stream";
  request.body = json{{"assistant_id", options.assistant}, {"input", options.input}}.dump();
  request.set_header("Content-Type", "application/json");
  FrameReader reader;
  std::vector<Frame> frames;
  Clock::time_point last_update{};
  request.content_receiver = [&](const char* data, std::size_t size, std::uint64_t, std::uint64_t) {
    for (Frame& frame : reader.feed(data, size)) {
      if (update_gaps != nullptr && frame.event == "updates") {
        const Clock::time_point now = Clock::now();
        if (last_update != Clock::time_point{})
          update_gaps->push_back(std::chrono::duration<double, std::milli>(now - last_update).count());
        last_update = now;
      }
      frames.push_back(std::move(frame));
      if (stop_after != 0 && frames.size() >= stop_after) return false;
    }
    return true;
  };
  httplib::Response response;
  httplib::Error error;
  client.send(request, response, error);
  return frames;
}

std::vector<Frame> join_stream(httplib::Client& client, const std::string& thread, const std::string& run_id,
                               long long last_id) {
  FrameReader reader;
  std::vector<Frame> frames;
  httplib::Headers headers;
  if (last_id > 0) headers.emplace("Last-Event-ID", std::to_string(last_id));
  client.Get(("/threads/" + thread + "/runs/" + run_id + "/stream").c_str(), headers,
             [&](const char* data, std::size_t size) {
               for (Frame& frame : reader.feed(data, size)) frames.push_back(std::move(frame));
               return true;
             });
  return frames;
}

std::string run_id_of(const std::vector<Frame>& frames) {
  for (const Frame& frame : frames) {
    if (frame.event == "metadata") return json::parse(frame.data)["run_id"].get<std::string>();
  }
  return {};
}

void measure_latency(const Options& options) {
  httplib::Client client("127.0.0.1", options.port);
  std::vector<double> runs;
  std::vector<double> gaps;
  int steps = 0;
  for (int i = 0; i < options.latency_runs; ++i) {
    const std::string thread = new_thread(client);
    const Clock::time_point start = Clock::now();
    auto response = client.Post(("/threads/" + thread + "/runs/wait").c_str(),
                                json{{"assistant_id", options.assistant}, {"input", options.input}}.dump(),
                                "application/json");
    runs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!response || response->status != 200) throw std::runtime_error("runs/wait failed");
    if (i == 0) {
      std::vector<Frame> frames = stream_run(client, options, new_thread(client), 0);
      for (const Frame& frame : frames) steps += frame.event == "updates" ? 1 : 0;
    }
    stream_run(client, options, new_thread(client), 0, &gaps);
  }
  std::printf("latency over %d runs of %s (%d steps each):\n", options.latency_runs,
              options.assistant.c_str(), steps);
  std::printf("  POST runs/wait        p50 %.2f ms  p99 %.2f ms  (per step p50 %.2f ms)\n",
              percentile(runs, 0.5), percentile(runs, 0.99), percentile(runs, 0.5) / std::max(steps, 1));
  std::printf("  step to step on SSE   p50 %.2f ms  p99 %.2f ms  (gap between consecutive updates events)\n",
              percentile(gaps, 0.5), percentile(gaps, 0.99));
}

void measure_stream_rate(const Options& options) {
  httplib::Client client("127.0.0.1", options.port);
  const std::string thread = new_thread(client);
  std::size_t events = 0;
  std::vector<std::string> run_ids;
  const Clock::time_point start = Clock::now();
  while (Clock::now() - start < std::chrono::seconds(options.stream_seconds)) {
    std::vector<Frame> frames = stream_run(client, options, thread, 0);
    events += frames.size();
    run_ids.push_back(run_id_of(frames));
  }
  const double live =
      static_cast<double>(events) / std::chrono::duration<double>(Clock::now() - start).count();
  std::size_t replayed = 0;
  const Clock::time_point replay_start = Clock::now();
  for (const std::string& run_id : run_ids) replayed += join_stream(client, thread, run_id, 0).size();
  const double replay =
      static_cast<double>(replayed) / std::chrono::duration<double>(Clock::now() - replay_start).count();
  std::printf("one SSE client: %.0f events/s following %zu runs live, %.0f events/s replaying their logs\n",
              live, run_ids.size(), replay);
}

struct LoadCounts {
  std::atomic<long long> runs{0}, events{0}, reconnects{0}, lost{0}, duplicated{0}, unfinished{0},
      failures{0};
};

void load_client(const Options& options, Clock::time_point until, LoadCounts& counts, int seed) {
  httplib::Client client("127.0.0.1", options.port);
  client.set_read_timeout(std::chrono::seconds(60));
  for (int i = seed; Clock::now() < until; ++i) {
    try {
      const std::string thread = new_thread(client);
      const bool drop = i % 3 == 0;
      std::vector<Frame> got = stream_run(client, options, thread, drop ? 4 : 0);
      const std::string run_id = run_id_of(got);
      if (run_id.empty()) {
        ++counts.failures;
        continue;
      }
      if (got.empty() || got.back().event != "end") {
        ++counts.reconnects;
        std::vector<Frame> rest = join_stream(client, thread, run_id, got.back().id);
        got.insert(got.end(), rest.begin(), rest.end());
      }
      const std::vector<Frame> full = join_stream(client, thread, run_id, 0);
      long long expected = 1;
      for (const Frame& frame : got) {
        if (frame.id < expected) ++counts.duplicated;
        if (frame.id > expected) counts.lost += frame.id - expected;
        expected = std::max(expected, frame.id + 1);
      }
      if (!full.empty() && expected <= full.back().id) counts.lost += full.back().id - expected + 1;
      if (got.empty() || got.back().event != "end") ++counts.unfinished;
      counts.events += static_cast<long long>(got.size());
      ++counts.runs;
    } catch (const std::exception&) {
      ++counts.failures;
    }
  }
}

void measure_load(const Options& options) {
  LoadCounts counts;
  const Clock::time_point start = Clock::now();
  const Clock::time_point until = start + std::chrono::seconds(options.seconds);
  std::vector<std::thread> clients;
  for (int c = 0; c < options.clients; ++c)
    clients.emplace_back([&, c] { load_client(options, until, counts, c); });
  for (std::thread& client : clients) client.join();
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "load: %d clients for %.0f s: %lld runs (%.1f runs/s), %lld events received (%.0f/s), %lld "
      "reconnects with Last-Event-ID\n",
      options.clients, took, counts.runs.load(), static_cast<double>(counts.runs) / took,
      counts.events.load(), static_cast<double>(counts.events) / took, counts.reconnects.load());
  std::printf("  lost events %lld, duplicated events %lld, runs without end %lld, failed requests %lld\n",
              counts.lost.load(), counts.duplicated.load(), counts.unfinished.load(), counts.failures.load());
  if (counts.lost != 0 || counts.duplicated != 0) std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const std::string value = argv[i + 1];
    if (flag == "--port")
      options.port = std::stoi(value);
    else if (flag == "--assistant")
      options.assistant = value;
    else if (flag == "--input")
      options.input = json::parse(value);
    else if (flag == "--clients")
      options.clients = std::stoi(value);
    else if (flag == "--seconds")
      options.seconds = std::stoi(value);
    else if (flag == "--latency-runs")
      options.latency_runs = std::stoi(value);
    else if (flag == "--stream-seconds")
      options.stream_seconds = std::stoi(value);
    else {
      std::cerr << "server_load: unknown flag " << flag << "\n";
      return 2;
    }
  }
  try {
    measure_latency(options);
    measure_stream_rate(options);
    measure_load(options);
  } catch (const std::exception& e) {
    std::cerr << "server_load: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
