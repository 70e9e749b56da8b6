#include "planfirst/chat_sources.hpp"

#include <filesystem>
#include <system_error>

namespace planfirst::cli {

core::Result<ChatSources> make_chat_sources(const ChatSourceFlags& flags) {
  std::error_code ec;
  if (!std::filesystem::is_directory(flags.project_dir, ec)) {
    return core::invalid_argument("not a folder: " + flags.project_dir, "--project");
  }
  if (!flags.db_uri.empty() && flags.db_uri.rfind("postgresql://", 0) != 0 && flags.db_uri.rfind("postgres://", 0) != 0) {
    return core::invalid_argument("expected a postgresql://... URI, got " + flags.db_uri, "--db");
  }
  ChatSources chat;
  const std::string database = flags.db_uri.empty() ? "the status database of " + flags.project_dir : flags.db_uri;
  chat.hints["db"] = "the db source (" + database + ") is not wired into planfirst chat yet";
  chat.hints["doc"] = "the doc source (" + (std::filesystem::path(flags.project_dir) / "docs").string() +
                      ") is not wired into planfirst chat yet";
  chat.hints["policy"] = "the policy source (" + (std::filesystem::path(flags.project_dir) / "policies").string() +
                         ") is not wired into planfirst chat yet";
  chat.hints["neo4j"] = "the neo4j source (the project graph of " + flags.project_dir +
                        ") is not wired into planfirst chat yet";
  return chat;
}

}  // namespace planfirst::cli
