#include "graph/checkpointer.hpp"

namespace planfirst::graph {

std::string_view to_string(WriteKind kind) {
  switch (kind) {
    case WriteKind::kReplace: return "replace";
    case WriteKind::kAppend: return "append";
    case WriteKind::kSnapshot: return "snapshot";
    case WriteKind::kChunk: return "chunk";
  }
  return "replace";
}

std::optional<WriteKind> parse_write_kind(std::string_view text) {
  if (text == "replace") return WriteKind::kReplace;
  if (text == "append") return WriteKind::kAppend;
  if (text == "snapshot") return WriteKind::kSnapshot;
  if (text == "chunk") return WriteKind::kChunk;
  return std::nullopt;
}

std::string_view to_string(CheckpointStatus status) {
  switch (status) {
    case CheckpointStatus::kRunning: return "running";
    case CheckpointStatus::kInterrupted: return "interrupted";
    case CheckpointStatus::kDone: return "done";
    case CheckpointStatus::kFailed: return "failed";
  }
  return "running";
}

std::optional<CheckpointStatus> parse_checkpoint_status(std::string_view text) {
  if (text == "running") return CheckpointStatus::kRunning;
  if (text == "interrupted") return CheckpointStatus::kInterrupted;
  if (text == "done") return CheckpointStatus::kDone;
  if (text == "failed") return CheckpointStatus::kFailed;
  return std::nullopt;
}

}  // namespace planfirst::graph
