// checkpointer_child: a separate process for the checkpointer crash and two-process tests.
//   chain URI THREAD STEPS       continue THREAD from its head (or start it) up to step STEPS. Each
//                                step's side effect is an entry in the append key "side_effects",
//                                committed in the same transaction as the checkpoint.
//   interrupt URI THREAD         write THREAD up to a head that awaits user input; print its id.
//   resume URI THREAD HEAD       append the user's answer after HEAD (compare-and-swap); print the
//                                new head. Exit 0 ok, 4 conflict, 3 any other error.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "graph/checkpointer.hpp"
#include "graph/open_checkpointer.hpp"
#include "graph/state_assembler.hpp"

namespace {

using planfirst::core::Json;
using namespace planfirst::graph;

constexpr std::size_t kChunkEvery = 8;

int fail(const planfirst::core::Error& error) {
  std::cerr << "checkpointer_child: " << error.describe() << "\n";
  return error.code == planfirst::core::ErrorCode::kConflict ? 4 : 3;
}

CheckpointRecord record_for(const std::string& thread, std::int64_t step, const std::string& parent) {
  CheckpointRecord record;
  record.thread_id = thread;
  record.checkpoint_id = thread + "-" + std::to_string(step);
  record.parent_id = parent;
  record.step = step;
  record.node = step == 0 ? "__input__" : (step % 2 == 1 ? "supervisor" : "worker");
  record.last_completed_node = record.node;
  record.next_node = step % 2 == 1 ? "worker" : "supervisor";
  record.created_at = std::chrono::system_clock::now();
  return record;
}

// One item appended to an append key: an append, or a chunk of the pending ones every kChunkEvery.
KeyWrite list_write(Json& state, PendingAppendsByKey& pending, const std::string& key, Json item) {
  state[key].push_back(item);
  return append_write(key, Json::array({std::move(item)}), state[key], pending, kChunkEvery);
}

int chain(Checkpointer& store, const std::string& thread, std::int64_t steps) {
  auto head = store.head(thread);
  if (!head) return fail(head.error());
  Json state = Json::object();
  PendingAppendsByKey pending;
  std::string head_id;
  std::int64_t step = 0;
  if (head->has_value()) {
    head_id = (*head)->checkpoint_id;
    step = (*head)->step + 1;
    auto writes = store.writes_for_state(thread, head_id);
    if (!writes) return fail(writes.error());
    auto assembled = assemble_state(*writes);
    if (!assembled) return fail(assembled.error());
    state = std::move(*assembled);
    pending = pending_appends(*writes);
  } else {
    CheckpointRecord input = record_for(thread, 0, "");
    state = {{"counter", 0}, {"digest", 1}, {"side_effects", Json::array()}, {"reasoning", Json::array()}};
    for (const auto& [key, value] : state.items())
      input.writes.push_back({key, WriteKind::kReplace, value.dump()});
    if (auto r = store.append(input, ""); !r) return fail(r.error());
    head_id = input.checkpoint_id;
    step = 1;
  }
  for (; step <= steps; ++step) {
    CheckpointRecord record = record_for(thread, step, head_id);
    const std::int64_t digest = (state["digest"].get<std::int64_t>() * 31 + step) % 1'000'000'007;
    state["counter"] = step;
    state["digest"] = digest;
    record.writes.push_back({"counter", WriteKind::kReplace, Json(step).dump()});
    record.writes.push_back({"digest", WriteKind::kReplace, Json(digest).dump()});
    record.writes.push_back(list_write(state, pending, "side_effects", step));
    record.writes.push_back(
        list_write(state, pending, "reasoning",
                   {{"step_name", record.node}, {"step_text", "digest " + std::to_string(digest)}}));
    if (step == steps) record.status = CheckpointStatus::kDone;
    if (auto r = store.append(record, head_id); !r) return fail(r.error());
    head_id = record.checkpoint_id;
  }
  std::cout << head_id << "\n";
  return 0;
}

int interrupt(Checkpointer& store, const std::string& thread) {
  std::string parent;
  for (std::int64_t step = 0; step <= 3; ++step) {
    CheckpointRecord record = record_for(thread, step, parent);
    record.writes.push_back({"step", WriteKind::kReplace, Json(step).dump()});
    record.writes.push_back(
        {"reasoning", WriteKind::kAppend, Json::array({"step " + std::to_string(step)}).dump()});
    if (step == 3) {
      record.node = record.last_completed_node = "data_discovery";
      record.next_node = "data_discovery";
      record.status = CheckpointStatus::kInterrupted;
      record.metadata_json = R"({"checkpoint_message":"Scope confirmed?","checkpoint_prompt":"Proceed?"})";
      record.writes.push_back({"requires_user_input", WriteKind::kReplace, "true"});
    }
    if (auto r = store.append(record, parent); !r) return fail(r.error());
    parent = record.checkpoint_id;
  }
  std::cout << parent << "\n";
  return 0;
}

int resume(Checkpointer& store, const std::string& thread, const std::string& expected_head) {
  auto paused = store.get(thread, expected_head);
  if (!paused) return fail(paused.error());
  CheckpointRecord record = record_for(thread, paused->step + 1, expected_head);
  record.checkpoint_id = thread + "-resumed-by-" + std::to_string(::getpid());
  record.node = record.last_completed_node = "data_discovery";
  record.next_node = "supervisor";
  record.writes.push_back({"requires_user_input", WriteKind::kReplace, "false"});
  record.writes.push_back({"reasoning", WriteKind::kAppend, R"(["user said yes"])"});
  if (auto r = store.append(record, expected_head); !r) return fail(r.error());
  std::cout << record.checkpoint_id << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: checkpointer_child chain URI THREAD STEPS | interrupt URI THREAD | resume URI "
                 "THREAD HEAD\n";
    return 2;
  }
  const std::string mode = argv[1];
  auto store = open_checkpointer(argv[2]);
  if (!store) return fail(store.error());
  if (mode == "chain" && argc == 5) return chain(**store, argv[3], std::atoll(argv[4]));
  if (mode == "interrupt" && argc == 4) return interrupt(**store, argv[3]);
  if (mode == "resume" && argc == 5) return resume(**store, argv[3], argv[4]);
  std::cerr << "checkpointer_child: bad arguments\n";
  return 2;
}
