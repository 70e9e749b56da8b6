// OpenAiCompatibleModel against a loopback server: what each structured-output mode sends, how
// replies are read, and how bad replies are named.
#include "llm/openai_compatible_model.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "core/cancellation.hpp"
#include "llm/model_fixture.hpp"

namespace planfirst::llm {
namespace {

using test_support::ScriptedReply;

TEST(OpenAiCompatibleModel, ReturnsTheMessageContentUsageAndModel) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent, 21, 9)});
  const OpenAiCompatibleModel model = f.model();

  core::Result<Completion> completion = model.complete(ask("intent", "rank the regions"));

  ASSERT_TRUE(completion.has_value()) << completion.error().describe();
  EXPECT_EQ(completion->text, kValidIntent);
  EXPECT_EQ(completion->usage.prompt, 21);
  EXPECT_EQ(completion->usage.completion, 9);
  EXPECT_EQ(completion->model, "test-model");
  EXPECT_EQ(completion->finish_reason, "stop");
  EXPECT_EQ(completion->attempts, 1);
}

TEST(OpenAiCompatibleModel, SendsAStrictJsonSchemaResponseFormat) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model(StructuredOutput::kResponseFormat);

  ASSERT_TRUE(model.complete(ask("intent", "q")).has_value());

  const nlohmann::json body = f.request_json(0);
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_EQ(body["messages"][0]["content"], "q");
  EXPECT_EQ(body["response_format"]["type"], "json_schema");
  EXPECT_EQ(body["response_format"]["json_schema"]["name"], "intent");
  EXPECT_EQ(body["response_format"]["json_schema"]["strict"], true);
  EXPECT_EQ(body["response_format"]["json_schema"]["schema"]["required"],
            nlohmann::json({"primary", "confidence"}));
  EXPECT_FALSE(body.contains("grammar"));
}

TEST(OpenAiCompatibleModel, SendsAGbnfGrammarToLlamaCpp) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model(StructuredOutput::kLlamaCpp);

  ASSERT_TRUE(model.complete(ask("intent", "q")).has_value());

  const nlohmann::json body = f.request_json(0);
  ASSERT_TRUE(body.contains("grammar"));
  EXPECT_NE(body["grammar"].get<std::string>().find("root ::="), std::string::npos);
  EXPECT_FALSE(body.contains("response_format"));
}

TEST(OpenAiCompatibleModel, SendsOllamaChatWithTheSchemaAsFormat) {
  ModelFixture f;
  f.server.script("/api/chat", {ScriptedReply::ollama_chat(kValidIntent, 30, 12)});
  const OpenAiCompatibleModel model = f.model(StructuredOutput::kOllama);
  CompletionRequest request = ask("intent", "q");
  request.max_tokens = 64;

  core::Result<Completion> completion = model.complete(request);

  ASSERT_TRUE(completion.has_value()) << completion.error().describe();
  EXPECT_EQ(completion->text, kValidIntent);
  EXPECT_EQ(completion->usage.prompt, 30);
  const nlohmann::json body = f.request_json(0, "/api/chat");
  EXPECT_EQ(body["stream"], false);
  EXPECT_EQ(body["format"]["required"], nlohmann::json({"primary", "confidence"}));
  EXPECT_FALSE(body["format"].contains("$schema"));
  EXPECT_EQ(body["options"]["num_predict"], 64);
}

TEST(OpenAiCompatibleModel, StripsV1FromAnOllamaBaseUrl) {
  ModelFixture f;
  f.server.script("/api/chat", {ScriptedReply::ollama_chat(kValidIntent)});
  OpenAiModelOptions options = f.options(StructuredOutput::kOllama);
  options.base_url = f.server.base_url();  // ends in /v1
  const OpenAiCompatibleModel model = f.model(options);

  core::Result<Completion> completion = model.complete(ask("intent", "q"));

  ASSERT_TRUE(completion.has_value()) << completion.error().describe();
  EXPECT_EQ(f.server.requests("/api/chat").size(), 1u);
}

TEST(OpenAiCompatibleModel, SendsNoStructuredOutputFieldInModeNone) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model(StructuredOutput::kNone);

  ASSERT_TRUE(model.complete(ask("intent", "q")).has_value());

  const nlohmann::json body = f.request_json(0);
  EXPECT_FALSE(body.contains("response_format"));
  EXPECT_FALSE(body.contains("grammar"));
  EXPECT_FALSE(body.contains("json_schema"));
  EXPECT_FALSE(body.contains("format"));
}

TEST(OpenAiCompatibleModel, SendsTheSamplingSeedOnlyWhenSet) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent), ScriptedReply::chat(kValidIntent)});
  f.server.script("/api/chat", {ScriptedReply::ollama_chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model();
  CompletionRequest request = ask("intent", "q");
  ASSERT_TRUE(model.complete(request).has_value());
  request.seed = 42;
  ASSERT_TRUE(model.complete(request).has_value());
  ASSERT_TRUE(f.model(StructuredOutput::kOllama).complete(request).has_value());

  EXPECT_FALSE(f.request_json(0).contains("seed"));
  EXPECT_EQ(f.request_json(1)["seed"], 42);
  EXPECT_EQ(f.request_json(0, "/api/chat")["options"]["seed"], 42);
}

TEST(OpenAiCompatibleModel, CapsEveryRequestsMaxTokensAtTheConfiguredLimit) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent), ScriptedReply::chat(kValidIntent),
                        ScriptedReply::chat(kValidIntent)});
  OpenAiModelOptions options = f.options();
  options.max_tokens = 100;
  const OpenAiCompatibleModel model = f.model(options);
  CompletionRequest request = ask("intent", "q");
  request.max_tokens = 2048;
  ASSERT_TRUE(model.complete(request).has_value());
  request.max_tokens = 40;
  ASSERT_TRUE(model.complete(request).has_value());
  request.max_tokens = 0;
  ASSERT_TRUE(model.complete(request).has_value());

  EXPECT_EQ(f.request_json(0)["max_tokens"], 100);
  EXPECT_EQ(f.request_json(1)["max_tokens"], 40);
  EXPECT_EQ(f.request_json(2)["max_tokens"], 100);
}

TEST(OpenAiCompatibleModel, CapsOllamasNumPredictAtTheConfiguredLimit) {
  ModelFixture f;
  f.server.script("/api/chat", {ScriptedReply::ollama_chat(kValidIntent)});
  OpenAiModelOptions options = f.options(StructuredOutput::kOllama);
  options.max_tokens = 100;
  CompletionRequest request = ask("intent", "q");
  request.max_tokens = 2048;

  ASSERT_TRUE(f.model(options).complete(request).has_value());

  EXPECT_EQ(f.request_json(0, "/api/chat")["options"]["num_predict"], 100);
}

TEST(OpenAiCompatibleModel, SendsTheApiKeyAsABearerToken) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat("hi")});
  OpenAiModelOptions options = f.options();
  options.api_key = "sk-test";
  const OpenAiCompatibleModel model = f.model(options);

  ASSERT_TRUE(model.complete(ask("", "hello")).has_value());

  EXPECT_EQ(f.server.requests("/v1/chat/completions")[0].header("Authorization"), "Bearer sk-test");
}

TEST(OpenAiCompatibleModel, NamesAReplyThatIsNotUtf8) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat_with_invalid_utf8()});
  const OpenAiCompatibleModel model = f.model();

  core::Result<Completion> completion = model.complete(ask("intent", "q"));

  ASSERT_FALSE(completion.has_value());
  EXPECT_EQ(completion.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(completion.error().message.find("not valid UTF-8"), std::string::npos)
      << completion.error().message;
}

TEST(OpenAiCompatibleModel, RefusesAPromptThatIsNotUtf8BeforeSending) {
  ModelFixture f;
  const OpenAiCompatibleModel model = f.model();

  core::Result<Completion> completion = model.complete(ask("intent", "bad \xc3\x28 bytes"));

  ASSERT_FALSE(completion.has_value());
  EXPECT_EQ(completion.error().where, "/messages/0/content");
  EXPECT_TRUE(f.server.requests().empty());
}

TEST(OpenAiCompatibleModel, RefusesAnOversizedReply) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(std::string(2'000'000, 'a'))});
  OpenAiModelOptions options = f.options();
  options.http.max_response_bytes = 1'000'000;
  const OpenAiCompatibleModel model = f.model(options);

  core::Result<Completion> completion = model.complete(ask("intent", "q"));

  ASSERT_FALSE(completion.has_value());
  EXPECT_NE(completion.error().message.find("larger than the limit"), std::string::npos)
      << completion.error().message;
}

TEST(OpenAiCompatibleModel, NamesAReplyWithoutMessageContent) {
  ModelFixture f;
  ScriptedReply reply;
  reply.body = R"({"choices": []})";
  f.server.script_chat({reply});
  const OpenAiCompatibleModel model = f.model();

  core::Result<Completion> completion = model.complete(ask("intent", "q"));

  ASSERT_FALSE(completion.has_value());
  EXPECT_NE(completion.error().message.find("choices[0].message.content"), std::string::npos);
}

TEST(OpenAiCompatibleModel, RetriesA500AndCountsTheAttempts) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::error(500, "loading model"), ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model();

  core::Result<Completion> completion = model.complete(ask("intent", "q"));

  ASSERT_TRUE(completion.has_value()) << completion.error().describe();
  EXPECT_EQ(completion->attempts, 2);
  EXPECT_EQ(f.sleeper.sleeps(), (std::vector<std::chrono::milliseconds>{std::chrono::milliseconds(100)}));
}

TEST(OpenAiCompatibleModel, HonoursTheRequestTimeout) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent).with_delay(std::chrono::milliseconds(3000))});
  const OpenAiCompatibleModel model = f.model();
  CompletionRequest request = ask("intent", "q");
  request.timeout = std::chrono::milliseconds(200);

  core::Result<Completion> completion = model.complete(request);

  ASSERT_FALSE(completion.has_value());
  EXPECT_EQ(completion.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(completion.error().message.find("read timeout"), std::string::npos) << completion.error().message;
}

TEST(OpenAiCompatibleModel, CancelsARequestInFlight) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent).with_delay(std::chrono::milliseconds(3000))});
  const OpenAiCompatibleModel model = f.model();
  core::CancellationToken cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });

  core::Result<Completion> completion = model.complete(ask("intent", "q"), &cancel);
  canceller.join();

  ASSERT_FALSE(completion.has_value());
  EXPECT_EQ(completion.error().message.rfind("request cancelled", 0), 0u) << completion.error().message;
}

TEST(OpenAiCompatibleModel, FailsOnAnUnknownContractWithoutSending) {
  ModelFixture f;
  const OpenAiCompatibleModel model = f.model();

  core::Result<Completion> completion = model.complete(ask("no_such_contract", "q"));

  ASSERT_FALSE(completion.has_value());
  EXPECT_EQ(completion.error().code, core::ErrorCode::kNotFound);
  EXPECT_TRUE(f.server.requests().empty());
}

TEST(OpenAiCompatibleModel, RecordsRequestAndTokenMetrics) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent, 21, 9), ScriptedReply::error(400, "bad")});
  const OpenAiCompatibleModel model = f.model();

  ASSERT_TRUE(model.complete(ask("intent", "q")).has_value());
  ASSERT_FALSE(model.complete(ask("intent", "q")).has_value());

  EXPECT_EQ(f.metrics.counter("llm_requests_total", {{"model", "test-model"}, {"outcome", "ok"}}).value(),
            1.0);
  EXPECT_EQ(f.metrics.counter("llm_requests_total", {{"model", "test-model"}, {"outcome", "error"}}).value(),
            1.0);
  EXPECT_EQ(f.metrics.counter("llm_tokens_total", {{"direction", "prompt"}}).value(), 21.0);
  EXPECT_EQ(f.metrics.counter("llm_tokens_total", {{"direction", "completion"}}).value(), 9.0);
  EXPECT_EQ(f.metrics.histogram("llm_latency_seconds", {{"model", "test-model"}}).snapshot().count, 2u);
}

TEST(OpenAiCompatibleModel, ListsTheServersModels) {
  ModelFixture f;
  const OpenAiCompatibleModel model = f.model();

  core::Result<std::vector<std::string>> models = model.list_models();

  ASSERT_TRUE(models.has_value()) << models.error().describe();
  EXPECT_EQ(*models, std::vector<std::string>{"test-model"});
}

TEST(OpenAiCompatibleModel, ReadsItsOptionsFromConfigAndTheNamedKeyVariable) {
  core::Config config;
  ASSERT_TRUE(config.set_flag("llm.base_url", "http://127.0.0.1:9/v1").has_value());
  ASSERT_TRUE(config.set_flag("llm.api_key_env", "MY_KEY").has_value());
  ASSERT_TRUE(config.set_flag("llm.structured_output", "llamacpp").has_value());
  ASSERT_TRUE(config.set_flag("llm.timeout_seconds", "2.5").has_value());
  ASSERT_TRUE(config.set_flag("llm.max_tokens", "192").has_value());

  core::Result<OpenAiModelOptions> options = model_options_from_config(config, {{"MY_KEY", "secret"}});

  ASSERT_TRUE(options.has_value()) << options.error().describe();
  EXPECT_EQ(options->api_key, "secret");
  EXPECT_EQ(options->structured_output, StructuredOutput::kLlamaCpp);
  EXPECT_EQ(options->timeout, std::chrono::milliseconds(2500));
  EXPECT_EQ(options->max_tokens, 192);
}

TEST(OpenAiCompatibleModel, SaysWhenNoServerIsConfigured) {
  const core::Config config;

  core::Result<OpenAiModelOptions> options = model_options_from_config(config, {});

  ASSERT_FALSE(options.has_value());
  EXPECT_EQ(options.error().where, "llm.base_url");
}

}  // namespace
}  // namespace planfirst::llm
