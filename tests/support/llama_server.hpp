// LlamaServer is llama.cpp's llama-server with a model scripts/bootstrap installed (third_party/llama/):
// the small chat model, or the embedding model with --embeddings; started for a test program on
// 127.0.0.1 on a free port: the real server every LLM and embedding path is tested against.
// Destruction stops it (SIGTERM, then SIGKILL). Not thread-safe.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>

namespace planfirst::test_support {

// What a server serves: chat completions with the small chat model, or /v1/embeddings with the
// embedding model (all-MiniLM-L6-v2: 384 dimensions, mean pooling).
enum class LlamaRole { kChat, kEmbeddings };

class LlamaServer {
 public:
  // Starts a new server and waits until /health answers (about a second for the bundled models). On
  // failure (no binary or model: run scripts/bootstrap) returns nullptr and sets `*failure` to the
  // reason with the end of the server's log.
  static std::unique_ptr<LlamaServer> start(std::string* failure, LlamaRole role = LlamaRole::kChat);

  // The one chat server of this test program, started on first use and stopped when the program
  // exits; a failed start is remembered, not retried.
  static LlamaServer* shared(std::string* failure);
  // The same for the one embedding server.
  static LlamaServer* shared_embeddings(std::string* failure);

  ~LlamaServer();
  LlamaServer(const LlamaServer&) = delete;
  LlamaServer& operator=(const LlamaServer&) = delete;

  int port() const { return port_; }
  std::string base_url() const;  // "http://127.0.0.1:PORT/v1", what --llm takes
  std::string model_id() const;  // the id GET /v1/models lists: the role's alias
  // SIGKILL now, as a crash would; the destructor then only reaps it.
  void kill_now();

 private:
  LlamaServer(std::filesystem::path root, pid_t pid, int port, LlamaRole role);

  std::filesystem::path root_;  // holds the log
  pid_t pid_;
  int port_;
  LlamaRole role_;
};

// Where scripts/bootstrap put the server and the models (compile definitions of the test support).
std::filesystem::path llama_server_binary();
std::filesystem::path llama_model_file();
std::filesystem::path llama_embedding_model_file();

}  // namespace planfirst::test_support
