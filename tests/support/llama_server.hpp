// LlamaServer is llama.cpp's llama-server with the small model scripts/bootstrap installed
// (third_party/llama/), started for a test program on 127.0.0.1 on a free port: the real server every
// LLM path is tested against. Destruction stops it (SIGTERM, then SIGKILL). Not thread-safe.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>

namespace planfirst::test_support {

class LlamaServer {
 public:
  // Starts a new server and waits until /health answers (about a second for the bundled model). On
  // failure (no binary or model: run scripts/bootstrap) returns nullptr and sets `*failure` to the
  // reason with the end of the server's log.
  static std::unique_ptr<LlamaServer> start(std::string* failure);

  // The one server of this test program, started on first use and stopped when the program exits;
  // a failed start is remembered, not retried.
  static LlamaServer* shared(std::string* failure);

  ~LlamaServer();
  LlamaServer(const LlamaServer&) = delete;
  LlamaServer& operator=(const LlamaServer&) = delete;

  int port() const { return port_; }
  std::string base_url() const;  // "http://127.0.0.1:PORT/v1", what --llm takes
  std::string model_id() const;  // the id GET /v1/models lists
  // SIGKILL now, as a crash would; the destructor then only reaps it.
  void kill_now();

 private:
  LlamaServer(std::filesystem::path root, pid_t pid, int port);

  std::filesystem::path root_;  // holds the log
  pid_t pid_;
  int port_;
};

// Where scripts/bootstrap put the server and the model (compile definitions of the test support).
std::filesystem::path llama_server_binary();
std::filesystem::path llama_model_file();

}  // namespace planfirst::test_support
