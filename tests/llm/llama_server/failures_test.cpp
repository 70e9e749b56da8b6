// How the guard and the model client meet the real server's failures: a token limit that cuts the
// JSON off (truncated, re-asked with the error), a server killed while it generates, and a model
// name the server does not have.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "llm/contract_guard.hpp"
#include "llm/llama_server/llama_fixture.hpp"

namespace planfirst::llm {
namespace {

// Passes every request on to the real model and keeps what was asked: the re-ask messages.
class KeepsRequests final : public Model {
 public:
  explicit KeepsRequests(const Model& model) : model_(model) {}
  core::Result<Completion> complete(const CompletionRequest& request,
                                    const core::CancellationToken* cancel) const override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      requests_.push_back(request);
    }
    return model_.complete(request, cancel);
  }
  std::string name() const override { return model_.name(); }
  std::vector<CompletionRequest> requests() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return requests_;
  }

 private:
  const Model& model_;
  mutable std::mutex mutex_;
  mutable std::vector<CompletionRequest> requests_;
};

CompletionRequest intent_request(int max_tokens) {
  CompletionRequest request;
  request.contract = "intent";
  request.messages = {{"user",
                       "Classify the question 'which region grew fastest in 2023?' as JSON "
                       "{\"primary\": <label>, \"confidence\": <0..1>}."}};
  request.max_tokens = max_tokens;
  request.seed = 7;
  return request;
}

TEST(LlamaFailures, ATokenLimitThatCutsTheJsonOffIsTruncatedAndReaskedWithTheError) {
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();
  const OpenAiCompatibleModel model = f.model(StructuredOutput::kLlamaCpp);
  const KeepsRequests kept(model);
  const ContractGuard guard(kept, f.contracts(), GuardOptions{});

  const GuardedCompletion reply = guard.generate(intent_request(6));

  ASSERT_FALSE(reply.has_value()) << reply->text;
  const GuardFailure& failure = reply.failure();
  EXPECT_EQ(failure.reason, "truncated") << failure.describe();
  ASSERT_EQ(failure.attempts.size(), 3u) << failure.describe();  // the first try and two re-asks
  for (const GuardAttempt& attempt : failure.attempts) {
    EXPECT_EQ(attempt.reason, "truncated") << attempt.reply;
    EXPECT_FALSE(attempt.reply.empty()) << "the server sent the JSON it had begun";
  }
  const std::vector<CompletionRequest> requests = kept.requests();
  ASSERT_EQ(requests.size(), 3u);
  const std::string& reask = requests[1].messages.back().content;
  EXPECT_NE(reask.find("truncated"), std::string::npos) << reask;
  EXPECT_NE(reask.find("intent"), std::string::npos) << reask;
  EXPECT_EQ(requests[1].messages[requests[1].messages.size() - 2].content, failure.attempts[0].reply)
      << "the re-ask shows the model its own cut-off reply";
}

TEST(LlamaFailures, ALimitThatLeavesRoomGivesAValidAnswerOnTheFirstTry) {
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();
  const OpenAiCompatibleModel model = f.model(StructuredOutput::kLlamaCpp);
  const ContractGuard guard(model, f.contracts(), GuardOptions{});

  const GuardedCompletion reply = guard.generate(intent_request(64));

  ASSERT_TRUE(reply.has_value()) << reply.failure().describe();
  EXPECT_EQ(reply->attempts, 1);
  EXPECT_EQ(reply->finish_reason, "stop");
  EXPECT_GT(reply->usage.prompt, 0);
  EXPECT_GT(reply->usage.completion, 0);
}

TEST(LlamaFailures, AServerKilledWhileGeneratingIsAModelErrorNotAHang) {
  std::string why;
  std::unique_ptr<test_support::LlamaServer> doomed = test_support::LlamaServer::start(&why);
  ASSERT_NE(doomed, nullptr) << why;
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();  // its options start from the shared server's
  OpenAiModelOptions options = f.options(StructuredOutput::kNone);
  options.base_url = doomed->base_url();
  const OpenAiCompatibleModel model = f.model(options);
  const ContractGuard guard(model, f.contracts(), GuardOptions{});
  CompletionRequest request = intent_request(4000);  // free text, long: still generating when killed
  request.messages = {{"user", "Write a long essay about the history of spreadsheets."}};
  request.stop = {};

  std::future<GuardedCompletion> pending =
      std::async(std::launch::async, [&guard, request] { return guard.generate(request); });
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  doomed->kill_now();
  const GuardedCompletion reply = pending.get();

  ASSERT_FALSE(reply.has_value()) << reply->text;
  const GuardFailure& failure = reply.failure();
  EXPECT_EQ(failure.reason, "model_error") << failure.describe();
  ASSERT_TRUE(failure.model_error.has_value());
  EXPECT_NE(failure.model_error->describe().find("127.0.0.1"), std::string::npos)
      << "the error names the server: " << failure.model_error->describe();
}

TEST(LlamaFailures, AModelNameTheServerDoesNotHaveIsAnsweredByItsOneModel) {
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();
  OpenAiModelOptions options = f.options(StructuredOutput::kLlamaCpp);
  options.model = "no-such-model";
  const OpenAiCompatibleModel model = f.model(options);

  core::Result<std::vector<std::string>> offered = model.list_models();
  const core::Result<Completion> reply = model.complete(intent_request(64));

  ASSERT_TRUE(offered.has_value()) << offered.error().describe();
  EXPECT_EQ(*offered, std::vector<std::string>{f.server().model_id()});
  // llama-server serves the one model it loaded whatever name is asked for, under its own id: the
  // model list (what `planfirst llm check` compares) and the reply's model show the mismatch.
  ASSERT_TRUE(reply.has_value()) << reply.error().describe();
  EXPECT_EQ(reply->model, f.server().model_id());
}

}  // namespace
}  // namespace planfirst::llm
