// planfirst threads list | show THREAD | history THREAD | prune THREAD --keep-last N
//   | prune [--keep-threads N] [--keep-days D]
//   [--checkpointer URI]  (memory:, sqlite:PATH, postgresql://...; default: a SQLite file under the
//   user's data directory)
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "graph/checkpointer.hpp"
#include "graph/open_checkpointer.hpp"
#include "graph/state_assembler.hpp"
#include "graph/thread_retention.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

struct ThreadsArgs {
  std::string checkpointer;  // empty: the default SQLite file
  std::string thread;
  std::size_t keep_last = 0;
  std::size_t keep_threads = 0;  // prune without THREAD: the newest N threads stay
  std::size_t keep_days = 0;     // prune without THREAD: threads updated within D days stay
};

std::string utc_time(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  std::ostringstream out;
  out << std::put_time(&parts, "%Y-%m-%dT%H:%M:%SZ");
  return out.str();
}

// Prints the error and returns the exit code its kind calls for.
int report(const core::Error& error) {
  std::cerr << "planfirst threads: " << error.describe() << "\n";
  switch (error.code) {
    case core::ErrorCode::kInvalidArgument: return kExitUsage;
    case core::ErrorCode::kFailedPrecondition:
    case core::ErrorCode::kConflict: return kExitCheckFailed;
    default: return kExitInputError;
  }
}

// The store the user named. A sqlite: file that does not exist yet sets `*missing` (nothing is
// stored) instead of being created by a command that only reads or prunes.
core::Result<std::unique_ptr<graph::Checkpointer>> open_store(const ThreadsArgs& args, bool* missing) {
  const std::string uri = args.checkpointer.empty()
                              ? graph::default_checkpointer_uri(core::process_environment())
                              : args.checkpointer;
  *missing = false;
  if (uri.starts_with("sqlite:")) {
    std::string path =
        uri.substr(7, uri.find('?') == std::string::npos ? std::string::npos : uri.find('?') - 7);
    if (path.starts_with("//")) path = path.substr(2);
    std::error_code error;
    if (!path.empty() && !std::filesystem::exists(path, error)) {
      *missing = true;
      return std::unique_ptr<graph::Checkpointer>();
    }
  }
  return graph::open_checkpointer(uri);
}

int run_list(const ThreadsArgs& args) {
  bool missing = false;
  auto store = open_store(args, &missing);
  if (!store) return report(store.error());
  if (missing) return kExitOk;  // nothing stored yet
  auto threads = (*store)->threads();
  if (!threads) return report(threads.error());
  if (threads->empty()) return kExitOk;
  std::size_t width = 6;
  for (const std::string& thread : *threads) width = std::max(width, thread.size());
  std::cout << std::left << std::setw(static_cast<int>(width) + 2) << "THREAD" << std::setw(8) << "STEP"
            << std::setw(13) << "STATUS" << std::setw(22) << "UPDATED"
            << "NEXT\n";
  for (const std::string& thread : *threads) {
    auto head = (*store)->head(thread);
    if (!head) return report(head.error());
    if (!head->has_value()) continue;  // deleted meanwhile
    const graph::CheckpointRecord& record = **head;
    std::cout << std::setw(static_cast<int>(width) + 2) << thread << std::setw(8) << record.step
              << std::setw(13) << graph::to_string(record.status) << std::setw(22)
              << utc_time(record.created_at) << (record.next_node.empty() ? "-" : record.next_node) << "\n";
  }
  return kExitOk;
}

// The thread's head, or an exit code after saying why there is none.
core::Result<graph::CheckpointRecord> head_of(graph::Checkpointer& store, const std::string& thread) {
  auto head = store.head(thread);
  if (!head) return head.error();
  if (!head->has_value()) return core::not_found("no thread '" + thread + "' (see 'planfirst threads list')");
  return **head;
}

int run_show(const ThreadsArgs& args) {
  bool missing = false;
  auto store = open_store(args, &missing);
  if (!store) return report(store.error());
  if (missing) return report(core::not_found("no thread '" + args.thread + "': no checkpoints stored yet"));
  auto head = head_of(**store, args.thread);
  if (!head) return report(head.error());
  auto history = (*store)->history(args.thread);
  if (!history) return report(history.error());
  auto bytes = (*store)->stored_bytes(args.thread);
  if (!bytes) return report(bytes.error());
  auto writes = (*store)->writes_for_state(args.thread, head->checkpoint_id);
  if (!writes) return report(writes.error());
  auto state = graph::assemble_state(*writes);
  if (!state) return report(state.error());
  std::cout << "thread:       " << args.thread << "\n"
            << "head:         " << head->checkpoint_id << " (step " << head->step << ")\n"
            << "status:       " << graph::to_string(head->status) << "\n"
            << "node:         " << head->node << "\n"
            << "last done:    " << (head->last_completed_node.empty() ? "-" : head->last_completed_node)
            << "\n"
            << "next:         " << (head->next_node.empty() ? "-" : head->next_node) << "\n"
            << "updated:      " << utc_time(head->created_at) << "\n"
            << "checkpoints:  " << history->size() << " (oldest kept: step " << history->back().step << ")\n"
            << "stored bytes: " << *bytes << "\n"
            << "metadata:     " << head->metadata_json << "\n"
            << "state:\n"
            << state->dump(2) << "\n";
  return kExitOk;
}

int run_history(const ThreadsArgs& args) {
  bool missing = false;
  auto store = open_store(args, &missing);
  if (!store) return report(store.error());
  if (missing) return report(core::not_found("no thread '" + args.thread + "': no checkpoints stored yet"));
  auto history = (*store)->history(args.thread);
  if (!history) return report(history.error());
  std::size_t id_width = 10;
  for (const graph::CheckpointRecord& record : *history)
    id_width = std::max(id_width, record.checkpoint_id.size());
  std::cout << std::left << std::setw(8) << "STEP" << std::setw(static_cast<int>(id_width) + 2)
            << "CHECKPOINT" << std::setw(18) << "NODE" << std::setw(13) << "STATUS"
            << "CREATED\n";
  for (const graph::CheckpointRecord& record : *history) {
    std::cout << std::setw(8) << record.step << std::setw(static_cast<int>(id_width) + 2)
              << record.checkpoint_id << std::setw(18) << record.node << std::setw(13)
              << graph::to_string(record.status) << utc_time(record.created_at) << "\n";
  }
  return kExitOk;
}

// Without THREAD: whole threads, by the retention `ask` applies to the default store.
int run_prune_threads(const ThreadsArgs& args) {
  if (args.keep_last != 0)
    return report(core::invalid_argument("--keep-last prunes one thread's checkpoints: name the THREAD"));
  graph::ThreadRetention retention;
  if (args.keep_threads != 0) retention.keep_threads = args.keep_threads;
  if (args.keep_days != 0)
    retention.max_age = std::chrono::hours(24 * static_cast<std::int64_t>(args.keep_days));
  if (!retention.limits()) {
    return report(
        core::invalid_argument("name a THREAD and --keep-last N, or prune whole threads with --keep-threads "
                               "N and/or --keep-days D"));
  }
  bool missing = false;
  auto store = open_store(args, &missing);
  if (!store) return report(store.error());
  if (missing) {
    std::cout << "pruned threads: removed 0, kept 0\n";  // nothing stored yet
    return kExitOk;
  }
  auto pruned = graph::prune_threads(**store, retention, std::chrono::system_clock::now());
  if (!pruned) return report(pruned.error());
  std::cout << "pruned threads: removed " << pruned->removed.size() << ", kept " << pruned->kept << "\n";
  for (const std::string& thread : pruned->removed) std::cout << "  removed " << thread << "\n";
  return kExitOk;
}

int run_prune(const ThreadsArgs& args) {
  if (args.thread.empty()) return run_prune_threads(args);
  if (args.keep_threads != 0 || args.keep_days != 0)
    return report(
        core::invalid_argument("--keep-threads and --keep-days prune whole threads: name no THREAD"));
  if (args.keep_last == 0) return report(core::invalid_argument("pruning THREAD needs --keep-last N"));
  bool missing = false;
  auto store = open_store(args, &missing);
  if (!store) return report(store.error());
  if (missing) return report(core::not_found("no thread '" + args.thread + "': no checkpoints stored yet"));
  graph::PruneOptions options;
  options.keep_last = args.keep_last;
  auto pruned = (*store)->prune(args.thread, options);
  if (!pruned) return report(pruned.error());
  std::cout << "pruned " << args.thread << ": removed " << pruned->removed << " checkpoint"
            << (pruned->removed == 1 ? "" : "s") << ", kept " << pruned->kept << "\n";
  return kExitOk;
}

}  // namespace

void add_threads_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<ThreadsArgs>();  // shared by the callbacks below, which outlive this call
  CLI::App* threads = app.add_subcommand(
      "threads",
      "The graph runs stored by a checkpointer: list them, show one's head and state, list its "
      "checkpoints, or prune old ones. Exit 0 ok, 2 bad arguments or URI, 3 unknown thread or "
      "unreadable store.");
  threads->add_option("--checkpointer", args->checkpointer,
                      "memory:, sqlite:PATH or postgresql://... (default: sqlite:$XDG_DATA_HOME/planfirst/"
                      "checkpoints.sqlite, else ~/.local/share/planfirst/checkpoints.sqlite)");
  threads->fallthrough();  // --checkpointer may also follow the subcommand
  threads->require_subcommand(1);

  CLI::App* list =
      threads->add_subcommand("list", "One line per thread: its head's step, status, time and next node.");
  list->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_list(*args);
  });

  CLI::App* show =
      threads->add_subcommand("show", "A thread's head checkpoint, its size and its whole state as JSON.");
  show->add_option("THREAD", args->thread, "Thread id (see 'threads list')")->required();
  show->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_show(*args);
  });

  CLI::App* history = threads->add_subcommand("history", "A thread's checkpoints, newest first.");
  history->add_option("THREAD", args->thread, "Thread id")->required();
  history->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_history(*args);
  });

  CLI::App* prune = threads->add_subcommand(
      "prune",
      "Drop a thread's old checkpoints (THREAD --keep-last N): the kept ones keep their states, and the head "
      "(even one awaiting user input) is never dropped. Or drop whole threads (--keep-threads N, --keep-days "
      "D): the retention 'ask' applies to the default store (checkpoint.keep_threads, "
      "checkpoint.keep_days).");
  prune->add_option("THREAD", args->thread, "Thread id; none: prune whole threads");
  prune->add_option("--keep-last", args->keep_last, "How many of the thread's newest checkpoints to keep")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  prune->add_option("--keep-threads", args->keep_threads, "Keep the N threads updated most recently")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  prune->add_option("--keep-days", args->keep_days, "Drop the threads not updated within D days")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
  prune->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_prune(*args);
  });
}

}  // namespace planfirst::cli
