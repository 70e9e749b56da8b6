#include "llm/replay_model.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/cancellation.hpp"
#include "core/content_hash.hpp"
#include "core/file_text.hpp"

namespace planfirst::llm {
namespace {

nlohmann::json messages_json(const std::vector<ChatMessage>& messages) {
  nlohmann::json out = nlohmann::json::array();
  for (const ChatMessage& m : messages) out.push_back({{"role", m.role}, {"content", m.content}});
  return out;
}

}  // namespace

std::string prompt_hash(const CompletionRequest& request) {
  const nlohmann::json canonical = {{"contract", request.contract},
                                    {"messages", messages_json(request.messages)}};
  const std::string bytes = canonical.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return "fnv1a64:" + core::to_hex(core::fnv1a64(bytes));
}

core::Result<std::unique_ptr<ReplayModel>> ReplayModel::load(const std::filesystem::path& file) {
  core::Result<std::string> text = core::read_file_text(file);
  if (!text) return core::not_found("cannot read the replay fixture", file.string());
  return parse(*text, file.string());
}

core::Result<std::unique_ptr<ReplayModel>> ReplayModel::parse(std::string_view jsonl,
                                                              std::string_view origin) {
  std::unique_ptr<ReplayModel> model(new ReplayModel());
  model->origin_ = std::string(origin);
  std::size_t pos = 0;
  std::size_t line_number = 0;
  while (pos < jsonl.size()) {
    std::size_t end = jsonl.find('\n', pos);
    if (end == std::string_view::npos) end = jsonl.size();
    const std::string_view line = jsonl.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = std::string(origin) + ":" + std::to_string(line_number);
    nlohmann::json entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_discarded() || !entry.is_object()) return core::invalid_argument("not a JSON object", where);
    for (const char* key : {"contract", "prompt_hash", "text"}) {
      if (!entry.contains(key) || !entry[key].is_string()) {
        return core::invalid_argument(std::string("missing string field \"") + key + "\"", where);
      }
    }
    Reply reply;
    reply.text = entry["text"].get<std::string>();
    reply.model = entry.value("model", std::string("replay"));
    if (entry.contains("usage") && entry["usage"].is_object()) {
      reply.usage.prompt = entry["usage"].value("prompt", std::int64_t{0});
      reply.usage.completion = entry["usage"].value("completion", std::int64_t{0});
    }
    model->replies_[{entry["contract"].get<std::string>(), entry["prompt_hash"].get<std::string>()}]
        .push_back(std::move(reply));
  }
  return model;
}

std::size_t ReplayModel::size() const {
  std::size_t n = 0;
  for (const auto& [key, replies] : replies_) n += replies.size();
  return n;
}

core::Result<Completion> ReplayModel::complete(const CompletionRequest& request,
                                               const core::CancellationToken* cancel) const {
  if (cancel != nullptr && cancel->cancelled()) return core::unavailable("request cancelled", origin_);
  const std::pair<std::string, std::string> key{request.contract, prompt_hash(request)};
  auto it = replies_.find(key);
  if (it == replies_.end()) {
    return core::not_found("no recorded reply for contract \"" + key.first + "\" and prompt " + key.second +
                               " (record one with --record)",
                           origin_);
  }
  std::size_t index = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t& next = next_[key];
    index = std::min(next, it->second.size() - 1);
    ++next;
  }
  const Reply& reply = it->second[index];
  Completion completion;
  completion.text = reply.text;
  completion.model = reply.model;
  completion.usage = reply.usage;
  completion.finish_reason = "stop";
  return completion;
}

core::Result<Completion> RecordingModel::complete(const CompletionRequest& request,
                                                  const core::CancellationToken* cancel) const {
  core::Result<Completion> completion = inner_.complete(request, cancel);
  if (!completion) return completion;
  const nlohmann::json entry = {
      {"contract", request.contract},
      {"prompt_hash", prompt_hash(request)},
      {"model", completion->model},
      {"text", completion->text},
      {"usage", {{"prompt", completion->usage.prompt}, {"completion", completion->usage.completion}}},
      {"messages", messages_json(request.messages)},
  };
  const std::string line = entry.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::lock_guard<std::mutex> lock(mutex_);
  std::ofstream out(file_, std::ios::binary | std::ios::app);
  out << line;
  out.flush();
  if (!out) return core::unavailable("cannot append to the fixture file", file_.string());
  return completion;
}

}  // namespace planfirst::llm
