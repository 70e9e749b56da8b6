#include "e2e/friction_session.hpp"

namespace planfirst::e2e {

CommandOutcome FrictionSession::planfirst(const std::string& args) const {
  return run_command(binary("planfirst") + " " + args);
}

CommandOutcome FrictionSession::run(const std::string& thread, const std::string& extra) const {
  return planfirst("graph run friction --checkpointer " + uri_ + " --thread " + thread + " " + extra);
}

CommandOutcome FrictionSession::resume(const std::string& thread, const std::string& checkpoint,
                                       const std::string& answer, const std::string& extra) const {
  return planfirst("graph resume friction --checkpointer " + uri_ + " --thread " + thread + " --checkpoint " +
                   checkpoint + " --answer " + answer + " " + extra);
}

CommandOutcome FrictionSession::threads(const std::string& subcommand) const {
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
