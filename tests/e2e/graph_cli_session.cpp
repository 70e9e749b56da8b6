#include "e2e/graph_cli_session.hpp"

namespace planfirst::e2e {

GraphCliSession::GraphCliSession()
    : uri_("sqlite:" + file("checkpoints.sqlite").string()),
      input_(dir_.write("input.json", nlohmann::json{{"question", kRunQuestion},
                                                     {"dataset", source("examples/sales.csv")},
                                                     {"out_dir", file("out").string()},
                                                     {"confirm", true},
                                                     {"write_files", false}}
                                          .dump())
                 .string()) {}

CommandOutcome GraphCliSession::planfirst(const std::string& args) const {
  return run_command(binary("planfirst") + " " + args);
}

CommandOutcome GraphCliSession::run(const std::string& thread, const std::string& extra) const {
  return planfirst("graph run autoviz --input " + input_ + " --checkpointer " + uri_ + " --thread " + thread +
                   " " + extra);
}

CommandOutcome GraphCliSession::resume(const std::string& thread, const std::string& checkpoint,
                                       const std::string& answer, const std::string& extra) const {
  return planfirst("graph resume autoviz --checkpointer " + uri_ + " --thread " + thread + " --checkpoint " +
                   checkpoint + " --answer '" + answer + "' " + extra);
}

CommandOutcome GraphCliSession::threads(const std::string& subcommand) const {
  return planfirst("threads --checkpointer " + uri_ + " " + subcommand);
}

nlohmann::json last_json_line(const std::string& output) {
  const std::size_t end = output.find_last_not_of('\n');
  if (end == std::string::npos) return {};
  const std::size_t newline = output.find_last_of('\n', end);
  const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
  nlohmann::json parsed = nlohmann::json::parse(output.substr(begin, end + 1 - begin), nullptr, false);
  return parsed.is_object() ? parsed : nlohmann::json();
}

}  // namespace planfirst::e2e
