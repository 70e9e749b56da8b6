// End-to-end ask figures (not assertions): the autoviz graph the CLI runs (profile, plan, coverage,
// execute, report into a scratch folder, SQLite checkpointer) on a 10-million-row DuckDB file,
// against the same queries run directly in DuckDB (open the file, the GROUP BY the plan runs, with
// its time bucket and its exact sums of doubles: direct_ms, the aim's baseline) and against the plain
// query a person would write (plain sum of doubles: plain_ms). Reports the times, the share each
// node and step takes, and the overhead ratios against the aim of under 10% (overhead: of the
// medians; overhead_paired: the median of each iteration's ask against its own direct query). The
// dataset is generated once, before any timing, and the services are loaded once, as a long-running process
// would, so the resident SVG renderer is warm after the first ask. The SVG is part of the ask:
// svg_fresh_ms is the same chart drawn by a fresh renderer (node start-up included, what a person
// running vl2svg by hand waits for), and overhead_vs_by_hand compares the ask with the direct query
// plus that render. BM_AskCli times the same questions as a user runs them: `planfirst ask` as a
// fresh process (the shared SVG renderer on, in a scratch runtime folder, and off), against the
// same SQL run by a fresh process that links DuckDB alone (duckdb_direct); the shared renderer is
// warmed by one ask first and waited for until it exits at the end; shared_servers counts the
// servers that answered (1: one outlived every run); cli_no_svg_ms is the ask with node off PATH (no
// SVG drawn), which separates planfirst's own overhead from vega's render. Build with
// -DPLANFIRST_BENCH=ON; run build-*/bench/autoviz_ask_bench.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "autoviz_fixture.hpp"
#include "core/file_text.hpp"
#include "data/duckdb_database.hpp"
#include "graph/events.hpp"
#include "graph/open_checkpointer.hpp"
#include "graph/runner.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/autoviz/report/svg_renderer.hpp"
#include "scratch_dir.hpp"

namespace {

using namespace planfirst;
using Clock = std::chrono::steady_clock;

constexpr double kAimOverhead = 0.10;
constexpr std::int64_t kRows = 10'000'000;

struct Question {
  std::string_view name;
  std::string_view text;
  std::string_view direct_sql;  // the query the plan runs, on the file's table
  std::string_view plain_sql;   // what a person would write: sums of doubles as plain sum()
};

// Dates span three years, so the plan's automatic grain is the month. Sums of DOUBLE columns are
// exact (aggregate adds them as DECIMAL(38, 10), so the same data gives the same bytes).
constexpr std::array<Question, 3> kQuestions = {{
    {"by_region_category_month", "total revenue by region and product category over time",
     "SELECT CAST(date_trunc('month', order_date) AS DATE) AS order_date, region, product_category, "
     "CAST(sum(CAST(revenue AS DECIMAL(38, 10))) AS DOUBLE) AS revenue FROM sales GROUP BY ALL ORDER BY ALL",
     "SELECT CAST(date_trunc('month', order_date) AS DATE) AS order_date, region, product_category, "
     "sum(revenue) AS revenue FROM sales GROUP BY ALL ORDER BY ALL"},
    {"units_by_region_month", "monthly units by region",
     "SELECT CAST(date_trunc('month', order_date) AS DATE) AS order_date, region, sum(units) AS units "
     "FROM sales GROUP BY ALL ORDER BY ALL",
     "SELECT CAST(date_trunc('month', order_date) AS DATE) AS order_date, region, sum(units) AS units "
     "FROM sales GROUP BY ALL ORDER BY ALL"},
    {"revenue_by_category", "total revenue by product category",
     "SELECT product_category, CAST(sum(CAST(revenue AS DECIMAL(38, 10))) AS DOUBLE) AS revenue FROM sales "
     "GROUP BY ALL ORDER BY ALL",
     "SELECT product_category, sum(revenue) AS revenue FROM sales GROUP BY ALL ORDER BY ALL"},
}};

void generate_sales(const std::filesystem::path& file) {
  std::unique_ptr<data::DuckDbDatabase> db = bench::value_of(data::DuckDbDatabase::open(file.string()));
  bench::value_of(
      db->exec("CREATE TABLE sales AS SELECT "
               "DATE '2022-01-01' + CAST(i % 1096 AS INTEGER) AS order_date, "
               "['North', 'South', 'East', 'West', 'Central'][1 + CAST(hash(i) % 5 AS INTEGER)] AS region, "
               "['Electronics', 'Furniture', 'Office', 'Clothing', 'Garden', 'Toys', 'Books', 'Sports']"
               "[1 + CAST(hash(i + 1) % 8 AS INTEGER)] AS product_category, "
               "round(5 + CAST(hash(i + 2) % 99500 AS DOUBLE) / 100, 2) AS revenue, "
               "CAST(1 + hash(i + 3) % 20 AS INTEGER) AS units FROM range(" +
               std::to_string(kRows) + ") AS t(i)"));
  bench::value_of(db->exec("CHECKPOINT"));
}

// Wall-clock milliseconds per node and per executed step ("execute.aggregate", from the execute
// node's "running <step>" progress), summed over a run (a retried node counts each time).
class NodeTimes final : public graph::EventSink {
 public:
  void on_event(const graph::Event& event) override {
    const Clock::time_point now = Clock::now();
    const std::lock_guard<std::mutex> lock(mutex_);
    if (event.kind == graph::EventKind::kNodeStart) {
      started_[event.node] = now;
    } else if (event.kind == graph::EventKind::kProgress) {
      const std::string message = event.data.json().value("message", "");
      if (message.rfind("running ", 0) != 0) return;
      close_step(now);
      step_ = {event.node + "." + message.substr(8), now};
    } else if (event.kind == graph::EventKind::kNodeEnd) {
      close_step(now);
      if (auto start = started_.find(event.node); start != started_.end()) {
        add(event.node, start->second, now);
      }
    }
  }

  std::map<std::string, double> take() {
    const std::lock_guard<std::mutex> lock(mutex_);
    started_.clear();
    step_.first.clear();
    return std::exchange(millis_, {});
  }

 private:
  void add(const std::string& key, Clock::time_point from, Clock::time_point to) {
    millis_[key] += std::chrono::duration<double, std::milli>(to - from).count();
  }
  void close_step(Clock::time_point now) {
    if (!step_.first.empty()) add(step_.first, step_.second, now);
    step_.first.clear();
  }

  std::mutex mutex_;
  std::map<std::string, Clock::time_point> started_;  // guarded by mutex_
  std::pair<std::string, Clock::time_point> step_;    // guarded by mutex_; the step running now
  std::map<std::string, double> millis_;              // guarded by mutex_
};

// The shared renderer's keep-alive in the CLI runs: longer than an iteration of BM_AskCli (4.5 s
// for the faceted chart), so one server serves every run (shared_servers 1).
constexpr int kKeepAliveSeconds = 10;

struct AskFixture {
  AskFixture() {
    generate_sales(dataset);
    graph_runner = std::make_unique<graph::Runner>(
        bench::value_of(autoviz::build_autoviz_graph(bench::load_services(scratch.file("cache")))),
        graph::RunnerOptions{.checkpointer = checkpointer.get(), .events = &node_times});
  }

  bench::ScratchDir scratch;
  std::filesystem::path dataset = scratch.file("sales.duckdb");
  std::filesystem::path runtime = scratch.file("runtime");  // XDG_RUNTIME_DIR of the CLI runs
  std::unique_ptr<graph::Checkpointer> checkpointer =
      bench::value_of(graph::open_checkpointer("sqlite:" + scratch.file("checkpoints.sqlite").string()));
  // Waits for a shared renderer the CLI runs started to exit when idle, so none outlives the bench.
  ~AskFixture() {
    const std::filesystem::path sockets = runtime / "planfirst";
    const Clock::time_point give_up = Clock::now() + std::chrono::seconds(kKeepAliveSeconds + 10);
    std::error_code ec;
    while (Clock::now() < give_up && std::filesystem::exists(sockets, ec) &&
           !std::filesystem::is_empty(sockets, ec)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  NodeTimes node_times;
  std::unique_ptr<graph::Runner> graph_runner;
  int runs = 0;
};

AskFixture& fixture() {
  static AskFixture kFixture;  // bench-local: the 10M-row file is generated once, before the first timing
  return kFixture;
}

// The ask as `planfirst ask DATA QUESTION --out DIR` runs it; the final table's row count.
std::int64_t ask(AskFixture& f, std::string_view question) {
  const std::string run = std::to_string(f.runs++);
  core::Json input{{"question", question},
                   {"dataset", f.dataset.string()},
                   {"out_dir", f.scratch.file("out-" + run).string()},
                   {"confirm", false},
                   {"plan_only", false}};
  graph::RunResult result =
      bench::value_of(f.graph_runner->run("ask-" + run, graph::JsonValue(std::move(input))));
  const core::Json& state = result.state.json();
  if (result.status != graph::RunStatus::kDone || state.value("outcome", "") != "done") {
    throw std::runtime_error("ask did not finish: " + state.value("outcome", std::string("?")) +
                             (result.error ? " " + result.error->describe() : ""));
  }
  std::int64_t rows = 0;
  for (const core::Json& step : state["execution"]["steps"]) {
    if (step.contains("table"))
      rows = step.value("row_count", static_cast<std::int64_t>(step["table"].size()));
  }
  return rows;
}

// Milliseconds a fresh renderer (node start-up, loading vega, one render) takes for `spec`; 0 when
// the renderer is unavailable.
double fresh_render_ms(std::string_view spec) {
  const autoviz::SvgRenderer renderer(autoviz::SvgRendererOptions::installed());
  if (!renderer.available()) return 0;
  const Clock::time_point start = Clock::now();
  (void)renderer.render(spec);  // the empty spec fails once node has loaded vega: that is its time
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The median of the iterations' own ratios `times[i] / baseline[i] - 1`: each ask against the
// direct query of the same iteration, so a drift of the machine between iterations moves both.
double paired_overhead(const std::vector<double>& times, const std::vector<double>& baseline) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < times.size() && i < baseline.size(); ++i)
    ratios.push_back(times[i] / baseline[i] - 1);
  return bench::percentile(ratios, 50);
}

// The chart the last ask rendered, as its report node gave it to the renderer; empty when it drew none.
std::string last_chart(const AskFixture& f) {
  const std::filesystem::path out = f.scratch.file("out-" + std::to_string(f.runs - 1));
  for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 8 && name.ends_with(".vl.json")) {
      return core::Json::parse(bench::value_of(core::read_file_text(entry.path()))).dump();
    }
  }
  return {};
}

// The rows `sql` gives on the DuckDB file `dataset`, opened read-only: the direct query.
std::int64_t direct(const std::filesystem::path& dataset, std::string_view sql) {
  std::unique_ptr<data::DuckDbDatabase> db =
      bench::value_of(data::DuckDbDatabase::open(dataset.string(), data::DatabaseOptions{.read_only = true}));
  return static_cast<std::int64_t>(bench::value_of(db->query(sql)).row_count());
}

// The counter a node's or step's time goes to: the planning nodes together, the others by name.
std::string counter_for(const std::string& key) {
  for (std::string_view node : {"intent", "requirements", "narrow", "adapt", "coverage"}) {
    if (key == node) return "planning_ms";
  }
  return key + "_ms";
}

double millis_of(const std::function<void()>& work) {
  const Clock::time_point start = Clock::now();
  work();
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One iteration: the ask, then the direct and the plain query; figures are medians over the
// iterations. runtime_ms is the ask's time outside every node: the graph runtime and its
// checkpoints. The iterations are a long-running process's steady state: kWarmUpAsks untimed asks
// of the question come first, so the resident renderer has compiled vega's hot paths (its first
// renders of a chart run 2-3x slower). Profiles of unchanged files are cached (a scratch cache
// folder here), so the first ask on the generated file profiles it and later ones read the cache:
// first_ask_ms and first_profile_ms are the question's first warm-up ask (cold only for the first
// question, which also starts the renderer), and overhead_first compares it.
constexpr int kWarmUpAsks = 5;

void BM_Ask(benchmark::State& state) {
  AskFixture& f = fixture();
  const Question& question = kQuestions[static_cast<std::size_t>(state.range(0))];
  std::vector<double> ask_ms, direct_ms, plain_ms, by_hand_ms;
  std::map<std::string, std::vector<double>> parts_ms;
  std::int64_t ask_rows = 0, direct_rows = 0;
  double first_ask_ms = 0;
  double first_profile_ms = 0;
  for (int i = 0; i < kWarmUpAsks; ++i) {
    f.node_times.take();
    const double millis = millis_of([&] { (void)ask(f, question.text); });
    if (i == 0) {
      first_ask_ms = millis;
      first_profile_ms = f.node_times.take()["profile"];
    }
  }
  for (auto _ : state) {
    f.node_times.take();
    ask_ms.push_back(millis_of([&] { ask_rows = ask(f, question.text); }));
    std::map<std::string, double> parts{{"runtime_ms", ask_ms.back()}};
    for (const auto& [key, millis] : f.node_times.take()) {
      parts[counter_for(key)] += millis;
      if (key.find('.') == std::string::npos) parts["runtime_ms"] -= millis;
    }
    for (const auto& [name, millis] : parts) parts_ms[name].push_back(millis);
    double svg_fresh = 0;
    if (const std::string chart = last_chart(f); !chart.empty()) {
      svg_fresh = fresh_render_ms(chart);
      parts_ms["svg_fresh_ms"].push_back(svg_fresh);
      parts_ms["svg_startup_ms"].push_back(fresh_render_ms("{}"));
    }
    direct_ms.push_back(millis_of([&] { direct_rows = direct(f.dataset, question.direct_sql); }));
    plain_ms.push_back(millis_of([&] { (void)direct(f.dataset, question.plain_sql); }));
    by_hand_ms.push_back(direct_ms.back() + svg_fresh);
  }
  const double ask_p50 = bench::percentile(ask_ms, 50), direct_p50 = bench::percentile(direct_ms, 50);
  state.counters["ask_ms"] = ask_p50;
  state.counters["direct_ms"] = direct_p50;
  state.counters["plain_ms"] = bench::percentile(plain_ms, 50);
  state.counters["overhead"] = ask_p50 / direct_p50 - 1;
  state.counters["overhead_paired"] = paired_overhead(ask_ms, direct_ms);
  state.counters["overhead/aim"] = (ask_p50 / direct_p50 - 1) / kAimOverhead;
  state.counters["overhead_vs_plain"] = ask_p50 / bench::percentile(plain_ms, 50) - 1;
  state.counters["overhead_vs_by_hand"] = ask_p50 / bench::percentile(by_hand_ms, 50) - 1;
  state.counters["first_ask_ms"] = first_ask_ms;
  state.counters["first_profile_ms"] = first_profile_ms;
  state.counters["overhead_first"] = first_ask_ms / direct_p50 - 1;
  for (const auto& [name, millis] : parts_ms) state.counters[name] = bench::percentile(millis, 50);
  state.counters["rows"] = static_cast<double>(ask_rows);
  state.counters["direct_rows"] = static_cast<double>(direct_rows);
  state.SetLabel(std::string(question.name));
}
BENCHMARK(BM_Ask)
    ->DenseRange(0, static_cast<int>(kQuestions.size()) - 1)
    ->Iterations(7)
    ->Unit(benchmark::kMillisecond);

// Milliseconds `command` takes as a shell command, its output discarded; throws when it fails.
double command_ms(const std::string& command) {
  int status = 0;
  const double millis = millis_of([&] { status = std::system((command + " > /dev/null 2>&1").c_str()); });
  if (status != 0) throw std::runtime_error("failed: " + command);
  return millis;
}

// `planfirst ask` as a shell command; with `draw` false, node is off PATH, so no SVG is drawn.
std::string cli_ask(const AskFixture& f, std::string_view question, int keep_alive_seconds,
                    bool draw = true) {
  return fmt::format(
      "{}XDG_RUNTIME_DIR='{}' PLANFIRST_RENDER_KEEP_ALIVE_SECONDS={} '{}/planfirst' ask '{}' '{}' "
      "--checkpointer memory: --out '{}'",
      draw ? "" : "PATH=/nonexistent ", f.runtime.string(), keep_alive_seconds, PLANFIRST_BINARY_DIR,
      f.dataset.string(), question, f.scratch.file("cli-out").string());
}

// The shared renderers' socket files in the CLI runs' runtime folder, by inode: a server that
// exited and was started again binds a new file.
std::set<std::uintmax_t> shared_sockets(const AskFixture& f) {
  std::set<std::uintmax_t> inodes;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(f.runtime / "planfirst", ec)) {
    struct stat status {};
    if (::stat(entry.path().c_str(), &status) == 0 && S_ISSOCK(status.st_mode)) inodes.insert(status.st_ino);
  }
  return inodes;
}

// The same SQL by a process that links DuckDB alone (duckdb_direct, beside this program).
std::string direct_process(const AskFixture& f, std::string_view sql) {
  return fmt::format(
      "'{}' '{}' \"{}\"",
      (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "duckdb_direct").string(),
      f.dataset.string(), sql);
}

void BM_AskCli(benchmark::State& state) {
  AskFixture& f = fixture();
  const Question& question = kQuestions[static_cast<std::size_t>(state.range(0))];
  std::filesystem::create_directories(f.runtime);
  command_ms(cli_ask(f, question.text, kKeepAliveSeconds));  // profiles the file, starts the renderer
  std::vector<double> shared_ms, child_ms, no_svg_ms, direct_ms;
  std::set<std::uintmax_t> servers = shared_sockets(f);
  for (auto _ : state) {
    shared_ms.push_back(command_ms(cli_ask(f, question.text, kKeepAliveSeconds)));
    servers.merge(shared_sockets(f));
    child_ms.push_back(command_ms(cli_ask(f, question.text, 0)));
    no_svg_ms.push_back(command_ms(cli_ask(f, question.text, kKeepAliveSeconds, false)));
    direct_ms.push_back(command_ms(direct_process(f, question.direct_sql)));
  }
  const double direct_p50 = bench::percentile(direct_ms, 50);
  state.counters["cli_ms"] = bench::percentile(shared_ms, 50);
  state.counters["cli_node_per_call_ms"] = bench::percentile(child_ms, 50);
  state.counters["direct_process_ms"] = direct_p50;
  state.counters["overhead"] = bench::percentile(shared_ms, 50) / direct_p50 - 1;
  state.counters["overhead_paired"] = paired_overhead(shared_ms, direct_ms);
  state.counters["overhead_node_per_call"] = bench::percentile(child_ms, 50) / direct_p50 - 1;
  state.counters["cli_no_svg_ms"] = bench::percentile(no_svg_ms, 50);
  state.counters["overhead_no_svg"] = bench::percentile(no_svg_ms, 50) / direct_p50 - 1;
  state.counters["overhead_no_svg_paired"] = paired_overhead(no_svg_ms, direct_ms);
  state.counters["shared_servers"] = static_cast<double>(servers.size());  // 1: one server served every run
  state.SetLabel(std::string(question.name));
}
BENCHMARK(BM_AskCli)
    ->DenseRange(0, static_cast<int>(kQuestions.size()) - 1)
    ->Iterations(9)
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
