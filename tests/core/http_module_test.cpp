#include "core/http_module.hpp"

#include <gtest/gtest.h>

namespace planfirst::core {
namespace {

TEST(HttpModule, LoadsTheModuleBuiltBesideTheProgram) {
  Result<HttpModule> first = HttpModule::load();
  Result<HttpModule> second = HttpModule::load();

  ASSERT_TRUE(first) << first.error().describe();
  ASSERT_TRUE(second) << second.error().describe();
  EXPECT_NE(first->exchange, nullptr);
  EXPECT_EQ(first->exchange, second->exchange);
}

TEST(HttpModule, AnUnreachablePortIsAConnectFailureWithTheTransportsName) {
  Result<HttpModule> module = HttpModule::load();
  ASSERT_TRUE(module) << module.error().describe();
  HttpExchangeRequest request{.scheme_host_port = "http://127.0.0.1:1",
                              .method = "GET",
                              .target = "/",
                              .headers = {},
                              .body = {},
                              .content_type = {},
                              .connect_timeout = std::chrono::milliseconds(500),
                              .read_timeout = std::chrono::milliseconds(500),
                              .write_timeout = std::chrono::milliseconds(500),
                              .verify_certificates = true,
                              .ca_cert_file = {},
                              .max_response_bytes = 1024,
                              .wait_cancelled = {}};
  HttpExchangeResult result;

  module->exchange(&request, &result);

  EXPECT_EQ(result.failure, HttpExchangeFailure::kConnect);
  EXPECT_FALSE(result.failure_text.empty());
  EXPECT_EQ(result.status, 0);
}

}  // namespace
}  // namespace planfirst::core
