// HttpClient against a scripted loopback server: retries, backoff, Retry-After, timeouts,
// cancellation and size limits, with a RecordingSleeper so no test really waits for a backoff.
#include "core/http_client.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/sleeper.hpp"
#include "support/openai_test_server.hpp"

namespace planfirst::core {
namespace {

using std::chrono::milliseconds;
using test_support::OpenAiTestServer;
using test_support::ScriptedReply;

HttpOptions no_jitter() {
  HttpOptions options;
  options.jitter = 0.0;
  options.initial_backoff = milliseconds(100);
  options.read_timeout = milliseconds(5000);
  return options;
}

struct Fixture {
  OpenAiTestServer server;
  RecordingSleeper sleeper;
  ManualClock clock{std::chrono::system_clock::from_time_t(1'700'000'000)};

  HttpClient client(HttpOptions options = no_jitter()) {
    Result<HttpClient> made = HttpClient::create(server.base_url(), options, sleeper, clock);
    if (!made) throw std::runtime_error(made.error().describe());
    return std::move(*made);
  }
};

TEST(HttpClient, PostsJsonAndReturnsTheBody) {
  Fixture f;
  f.server.script("/v1/echo", {ScriptedReply::chat("hello")});
  const HttpClient client = f.client();

  Result<HttpResponse> response = client.post_json("/echo", R"({"a":1})", {{"X-Test", "yes"}});

  ASSERT_TRUE(response.has_value()) << response.error().describe();
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->attempts, 1);
  EXPECT_NE(response->body.find("hello"), std::string::npos);
  ASSERT_EQ(f.server.requests("/v1/echo").size(), 1u);
  EXPECT_EQ(f.server.requests("/v1/echo")[0].body, R"({"a":1})");
  EXPECT_EQ(f.server.requests("/v1/echo")[0].header("X-Test"), "yes");
  EXPECT_EQ(f.server.requests("/v1/echo")[0].header("Content-Type"), "application/json");
}

TEST(HttpClient, RetriesServerErrorsWithExponentialBackoff) {
  Fixture f;
  f.server.script("/v1/x", {ScriptedReply::error(500, "boom"), ScriptedReply::error(503, "busy"),
                            ScriptedReply::chat("ok")});
  const HttpClient client = f.client();

  Result<HttpResponse> response = client.get("/x");

  ASSERT_TRUE(response.has_value()) << response.error().describe();
  EXPECT_EQ(response->attempts, 3);
  EXPECT_EQ(f.sleeper.sleeps(), (std::vector<milliseconds>{milliseconds(100), milliseconds(200)}));
}

TEST(HttpClient, HonoursRetryAfterOnTooManyRequests) {
  Fixture f;
  f.server.script("/v1/x", {ScriptedReply::error(429, "slow down").with_header("Retry-After", "7"),
                            ScriptedReply::chat("ok")});
  const HttpClient client = f.client();

  Result<HttpResponse> response = client.get("/x");

  ASSERT_TRUE(response.has_value()) << response.error().describe();
  EXPECT_EQ(f.sleeper.sleeps(), (std::vector<milliseconds>{milliseconds(7000)}));
}

TEST(HttpClient, ReadsRetryAfterAsAnHttpDate) {
  Fixture f;  // the manual clock stands at 1700000000 = Tue, 14 Nov 2023 22:13:20 GMT
  f.server.script(
      "/v1/x",
      {ScriptedReply::error(429, "later").with_header("Retry-After", "Tue, 14 Nov 2023 22:13:32 GMT"),
       ScriptedReply::chat("ok")});
  const HttpClient client = f.client();

  Result<HttpResponse> response = client.get("/x");

  ASSERT_TRUE(response.has_value()) << response.error().describe();
  EXPECT_EQ(f.sleeper.sleeps(), (std::vector<milliseconds>{milliseconds(12000)}));
}

TEST(HttpClient, CapsAnExcessiveRetryAfter) {
  Fixture f;
  f.server.script("/v1/x", {ScriptedReply::error(429, "much later").with_header("Retry-After", "86400"),
                            ScriptedReply::chat("ok")});
  HttpOptions options = no_jitter();
  options.max_retry_after = milliseconds(2000);
  const HttpClient client = f.client(options);

  Result<HttpResponse> response = client.get("/x");

  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(f.sleeper.sleeps(), (std::vector<milliseconds>{milliseconds(2000)}));
}

TEST(HttpClient, GivesUpAfterTheLastRetryAndSaysHowManyAttempts) {
  Fixture f;
  f.server.script("/v1/x", std::vector<ScriptedReply>(5, ScriptedReply::error(502, "bad gateway")));
  HttpOptions options = no_jitter();
  options.max_retries = 2;
  const HttpClient client = f.client(options);

  Result<HttpResponse> response = client.get("/x");

  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(response.error().message.find("HTTP 502"), std::string::npos) << response.error().message;
  EXPECT_NE(response.error().message.find("after 3 attempts"), std::string::npos) << response.error().message;
  EXPECT_EQ(f.server.requests("/v1/x").size(), 3u);
  EXPECT_EQ(f.sleeper.sleeps(), (std::vector<milliseconds>{milliseconds(100), milliseconds(200)}));
}

TEST(HttpClient, DoesNotRetryClientErrors) {
  Fixture f;
  f.server.script("/v1/x", {ScriptedReply::error(400, "bad field"), ScriptedReply::chat("never")});
  const HttpClient client = f.client();

  Result<HttpResponse> response = client.get("/x");

  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(response.error().message.find("bad field"), std::string::npos);
  EXPECT_EQ(f.server.requests("/v1/x").size(), 1u);
  EXPECT_TRUE(f.sleeper.sleeps().empty());
}

TEST(HttpClient, MapsNotFoundAndUnauthorizedToTheirCodes) {
  Fixture f;
  f.server.script("/v1/missing", {ScriptedReply::error(404, "no such model")});
  f.server.script("/v1/secret", {ScriptedReply::error(401, "bad key")});
  const HttpClient client = f.client();

  Result<HttpResponse> missing = client.get("/missing");
  Result<HttpResponse> secret = client.get("/secret");

  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  ASSERT_FALSE(secret.has_value());
  EXPECT_EQ(secret.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_NE(secret.error().message.find("API key"), std::string::npos);
}

TEST(HttpClient, RetriesWhenNothingListensThenSaysItCannotConnect) {
  int port = 0;
  {
    OpenAiTestServer gone;  // take a free port, then close it
    port = gone.port();
  }
  RecordingSleeper sleeper;
  ManualClock clock;
  HttpOptions options = no_jitter();
  options.max_retries = 2;
  Result<HttpClient> client =
      HttpClient::create("http://127.0.0.1:" + std::to_string(port) + "/v1", options, sleeper, clock);
  ASSERT_TRUE(client.has_value());

  Result<HttpResponse> response = client->get("/models");

  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(response.error().message.find("cannot connect"), std::string::npos) << response.error().message;
  EXPECT_EQ(sleeper.sleeps().size(), 2u);
}

TEST(HttpClient, KeepsJitteredBackoffWithinItsBounds) {
  Fixture f;
  f.server.script("/v1/x", std::vector<ScriptedReply>(4, ScriptedReply::error(500, "boom")));
  HttpOptions options = no_jitter();
  options.jitter = 0.5;
  options.jitter_seed = 42;
  options.max_retries = 3;
  const HttpClient client = f.client(options);

  Result<HttpResponse> response = client.get("/x");

  ASSERT_FALSE(response.has_value());
  const std::vector<milliseconds> sleeps = f.sleeper.sleeps();
  ASSERT_EQ(sleeps.size(), 3u);
  const int base[] = {100, 200, 400};
  for (std::size_t i = 0; i < sleeps.size(); ++i) {
    EXPECT_GE(sleeps[i].count(), base[i] / 2) << i;
    EXPECT_LE(sleeps[i].count(), base[i] * 3 / 2) << i;
  }
}

TEST(HttpClient, TimesOutAReplySlowerThanTheReadTimeoutWithoutRetrying) {
  Fixture f;
  f.server.script("/v1/slow", {ScriptedReply::chat("late").with_delay(milliseconds(3000))});
  HttpOptions options = no_jitter();
  options.read_timeout = milliseconds(200);
  const HttpClient client = f.client(options);
  const auto started = std::chrono::steady_clock::now();

  Result<HttpResponse> response = client.get("/slow");

  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(response.error().message.find("read timeout"), std::string::npos) << response.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(2000));
  EXPECT_EQ(f.server.requests("/v1/slow").size(), 1u);
}

TEST(HttpClient, CancellationAbortsARequestInFlight) {
  Fixture f;
  f.server.script("/v1/slow", {ScriptedReply::chat("late").with_delay(milliseconds(3000))});
  const HttpClient client = f.client();
  CancellationToken cancel;
  std::thread canceller([&] {
    std::this_thread::sleep_for(milliseconds(150));
    cancel.cancel();
  });
  const auto started = std::chrono::steady_clock::now();

  Result<HttpResponse> response = client.get("/slow", {}, &cancel);
  canceller.join();

  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().message.rfind("request cancelled", 0), 0u) << response.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - started, milliseconds(2000));
}

TEST(HttpClient, CancellationStopsRetrying) {
  Fixture f;
  f.server.script("/v1/x", {ScriptedReply::error(500, "boom"), ScriptedReply::chat("ok")});
  const HttpClient client = f.client();
  CancellationToken cancel;
  cancel.cancel();

  Result<HttpResponse> response = client.get("/x", {}, &cancel);

  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().message.rfind("request cancelled", 0), 0u);
  EXPECT_TRUE(f.server.requests("/v1/x").empty());
}

TEST(HttpClient, RefusesABodyOverTheSizeLimit) {
  Fixture f;
  f.server.script("/v1/big", {ScriptedReply::chat(std::string(300'000, 'x'))});
  HttpOptions options = no_jitter();
  options.max_response_bytes = 100'000;
  const HttpClient client = f.client(options);

  Result<HttpResponse> response = client.get("/big");

  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(response.error().message.find("larger than the limit of 100000 bytes"), std::string::npos)
      << response.error().message;
}

TEST(HttpClient, RejectsABaseUrlWithoutAScheme) {
  Result<HttpClient> client = HttpClient::create("localhost:8080/v1");

  ASSERT_FALSE(client.has_value());
  EXPECT_EQ(client.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(client.error().message.find("http://"), std::string::npos);
}

TEST(HttpClient, JoinsTheBasePathAndRequestPath) {
  Result<HttpClient> client = HttpClient::create("https://api.example.com/v1/");

  ASSERT_TRUE(client.has_value());
  EXPECT_EQ(client->url("/chat/completions"), "https://api.example.com/v1/chat/completions");
}

}  // namespace
}  // namespace planfirst::core
