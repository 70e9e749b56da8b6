// ReplayModel answers from a JSON Lines fixture, one recorded reply per line keyed by contract and
// prompt hash, so tests and users get the same answers on every run; RecordingModel wraps a real
// model and appends each reply it gets to such a file (`llm ask --record FILE`). A fixture line:
// {"contract":"intent","prompt_hash":"fnv1a64:...","model":"m","text":"...","usage":{...},"messages":[...]}
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "llm/model.hpp"

namespace planfirst::llm {

// "fnv1a64:<16 hex digits>" of the canonical request: contract and messages (role, content), as
// compact JSON with sorted keys. Limits, temperature and timeout are not part of it.
std::string prompt_hash(const CompletionRequest& request);

// Thread-safe: a key recorded more than once answers with its replies in order, then repeats the last.
class ReplayModel final : public Model {
 public:
  // kInvalidArgument naming file:line for a malformed line; kNotFound when the file is missing.
  static core::Result<std::unique_ptr<ReplayModel>> load(const std::filesystem::path& file);
  // `origin` names the text in errors.
  static core::Result<std::unique_ptr<ReplayModel>> parse(std::string_view jsonl, std::string_view origin);

  // kNotFound naming the contract, the hash and the fixture when nothing was recorded for the request.
  core::Result<Completion> complete(const CompletionRequest& request,
                                    const core::CancellationToken* cancel = nullptr) const override;
  std::string name() const override { return "replay"; }
  std::size_t size() const;  // recorded replies

 private:
  struct Reply {
    std::string text;
    std::string model;
    TokenUsage usage;
  };
  ReplayModel() = default;

  std::string origin_;
  std::map<std::pair<std::string, std::string>, std::vector<Reply>> replies_;  // (contract, hash)
  mutable std::mutex mutex_;
  mutable std::map<std::pair<std::string, std::string>, std::size_t> next_;  // guarded by mutex_
};

// Appends one fixture line per successful completion of `inner` (errors pass through unrecorded).
// Thread-safe. Borrows `inner`, which outlives it.
class RecordingModel final : public Model {
 public:
  RecordingModel(const Model& inner, std::filesystem::path file) : inner_(inner), file_(std::move(file)) {}

  // The inner completion; kUnavailable naming the file when it cannot be written.
  core::Result<Completion> complete(const CompletionRequest& request,
                                    const core::CancellationToken* cancel = nullptr) const override;
  std::string name() const override { return inner_.name(); }

 private:
  const Model& inner_;
  std::filesystem::path file_;
  mutable std::mutex mutex_;  // serializes appends to file_
};

}  // namespace planfirst::llm
