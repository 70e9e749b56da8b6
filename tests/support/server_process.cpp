#include "support/server_process.hpp"

#include <fstream>
#include <sstream>

namespace planfirst::test_support {

std::string log_tail(const std::filesystem::path& file, std::size_t limit) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  std::string text = bytes.str();
  return text.size() > limit ? "..." + text.substr(text.size() - limit) : text;
}

}  // namespace planfirst::test_support
