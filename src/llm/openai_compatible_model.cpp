#include "llm/openai_compatible_model.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "contracts/contract_registry.hpp"
#include "contracts/gbnf_export.hpp"
#include "contracts/response_format.hpp"
#include "core/clock.hpp"
#include "core/metrics.hpp"
#include "core/sleeper.hpp"
#include "core/utf8.hpp"

namespace planfirst::llm {
namespace {

using OrderedJson = nlohmann::ordered_json;

// Ollama's API lives at the server root; a base URL copied from its OpenAI endpoint ends in /v1.
std::string ollama_root(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.size() >= 3 && url.substr(url.size() - 3) == "/v1") url.resize(url.size() - 3);
  return url;
}

// The contract's schema for servers: key order kept, annotations they do not need dropped.
OrderedJson server_schema(const contracts::Contract& contract) {
  OrderedJson schema = OrderedJson::parse(contract.schema_text());
  schema.erase("$schema");
  schema.erase("$comment");
  return schema;
}

std::int64_t int_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return 0;
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

void record(core::MetricsRegistry* metrics, const std::string& model, const char* outcome,
            std::chrono::nanoseconds latency, const TokenUsage& usage) {
  if (metrics == nullptr) return;
  metrics->counter("llm_requests_total", {{"model", model}, {"outcome", outcome}}).inc();
  metrics->histogram("llm_latency_seconds", {{"model", model}})
      .observe(std::chrono::duration<double>(latency).count());
  if (usage.prompt > 0)
    metrics->counter("llm_tokens_total", {{"direction", "prompt"}}).inc(static_cast<double>(usage.prompt));
  if (usage.completion > 0) {
    metrics->counter("llm_tokens_total", {{"direction", "completion"}})
        .inc(static_cast<double>(usage.completion));
  }
}

}  // namespace

core::Result<OpenAiModelOptions> model_options_from_config(const core::Config& config,
                                                           const core::Environment& env) {
  OpenAiModelOptions options;
  options.base_url = config.get_string("llm.base_url");
  if (options.base_url.empty()) {
    return core::failed_precondition(
        "no LLM server is configured: set llm.base_url (or PLANFIRST_LLM_BASE_URL, or --base-url)",
        "llm.base_url");
  }
  options.model = config.get_string("llm.model");
  options.api_key = config.variable_named_by("llm.api_key_env", env);
  core::Result<StructuredOutput> mode = parse_structured_output(config.get_string("llm.structured_output"));
  if (!mode) return mode.error();
  options.structured_output = *mode;
  const double seconds = config.get_double("llm.timeout_seconds");
  options.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(seconds * 1000.0)));
  options.max_tokens = static_cast<int>(config.get_int("llm.max_tokens"));
  return options;
}

OpenAiCompatibleModel::OpenAiCompatibleModel(OpenAiModelOptions options, core::HttpClient http,
                                             const contracts::ContractRegistry& contracts,
                                             core::MetricsRegistry* metrics, const core::Clock& clock)
    : options_(std::move(options)),
      http_(std::move(http)),
      contracts_(&contracts),
      metrics_(metrics),
      clock_(&clock) {}

core::Result<OpenAiCompatibleModel> OpenAiCompatibleModel::create(
    OpenAiModelOptions options, const contracts::ContractRegistry& contracts,
    core::MetricsRegistry* metrics) {
  return create(std::move(options), contracts, metrics, core::thread_sleeper(), core::system_clock());
}

core::Result<OpenAiCompatibleModel> OpenAiCompatibleModel::create(
    OpenAiModelOptions options, const contracts::ContractRegistry& contracts, core::MetricsRegistry* metrics,
    core::Sleeper& sleeper, const core::Clock& clock) {
  const std::string url = options.structured_output == StructuredOutput::kOllama
                              ? ollama_root(options.base_url)
                              : options.base_url;
  core::HttpOptions http_options = options.http;
  http_options.read_timeout = options.timeout;
  core::Result<core::HttpClient> http = core::HttpClient::create(url, http_options, sleeper, clock);
  if (!http) return http.error();
  return OpenAiCompatibleModel(std::move(options), std::move(*http), contracts, metrics, clock);
}

std::string OpenAiCompatibleModel::name() const {
  return options_.model.empty() ? std::string("default") : options_.model;
}

core::Result<std::string> OpenAiCompatibleModel::request_body(const CompletionRequest& request) const {
  if (request.messages.empty())
    return core::invalid_argument("a completion request needs at least one message");
  OrderedJson messages = OrderedJson::array();
  for (std::size_t i = 0; i < request.messages.size(); ++i) {
    const ChatMessage& message = request.messages[i];
    if (auto bad = core::first_invalid_utf8(message.content)) {
      return core::invalid_argument(
          "message " + std::to_string(i) + " is not valid UTF-8 at byte " + std::to_string(*bad),
          "/messages/" + std::to_string(i) + "/content");
    }
    messages.push_back({{"role", message.role}, {"content", message.content}});
  }
  const contracts::Contract* contract = nullptr;
  if (!request.contract.empty()) {
    core::Result<const contracts::Contract*> found = contracts_->get(request.contract);
    if (!found) return found.error();
    contract = *found;
  }
  for (const std::string& stop : request.stop) {
    if (core::first_invalid_utf8(stop))
      return core::invalid_argument("a stop sequence is not valid UTF-8", "/stop");
  }

  int max_tokens = request.max_tokens;
  if (options_.max_tokens > 0 && (max_tokens <= 0 || max_tokens > options_.max_tokens))
    max_tokens = options_.max_tokens;
  OrderedJson body;
  if (!options_.model.empty()) body["model"] = options_.model;
  body["messages"] = std::move(messages);
  if (options_.structured_output == StructuredOutput::kOllama) {
    body["stream"] = false;
    OrderedJson model_options = OrderedJson::object();
    model_options["temperature"] = request.temperature;
    if (max_tokens > 0) model_options["num_predict"] = max_tokens;
    if (!request.stop.empty()) model_options["stop"] = request.stop;
    if (request.seed) model_options["seed"] = *request.seed;
    body["options"] = std::move(model_options);
    if (contract != nullptr) body["format"] = server_schema(*contract);
    return body.dump();
  }
  body["temperature"] = request.temperature;
  if (max_tokens > 0) body["max_tokens"] = max_tokens;
  if (!request.stop.empty()) body["stop"] = request.stop;
  if (request.seed) body["seed"] = *request.seed;
  body["stream"] = false;
  if (contract != nullptr) {
    switch (options_.structured_output) {
      case StructuredOutput::kResponseFormat:
        body["response_format"] = OrderedJson::parse(contracts::response_format(*contract));
        break;
      case StructuredOutput::kLlamaCpp:
        if (core::Result<std::string> grammar = contracts::to_gbnf(*contract)) {
          body["grammar"] = *grammar;
        } else {
          body["json_schema"] = server_schema(*contract);
        }
        break;
      case StructuredOutput::kOllama:
      case StructuredOutput::kNone: break;
    }
  }
  return body.dump();
}

core::Result<Completion> OpenAiCompatibleModel::complete(const CompletionRequest& request,
                                                         const core::CancellationToken* cancel) const {
  const auto started = clock_->steady_now();
  const std::string model_label = name();
  auto fail = [&](core::Error error) -> core::Result<Completion> {
    record(metrics_, model_label, "error", clock_->steady_now() - started, {});
    return error;
  };
  core::Result<std::string> body = request_body(request);
  if (!body) return fail(std::move(body).error());

  core::HttpRequest http_request;
  http_request.method = "POST";
  http_request.path =
      options_.structured_output == StructuredOutput::kOllama ? "/api/chat" : "/chat/completions";
  http_request.body = std::move(*body);
  if (!options_.api_key.empty())
    http_request.headers.emplace_back("Authorization", "Bearer " + options_.api_key);
  if (request.timeout.count() > 0) http_request.read_timeout = request.timeout;

  core::Result<core::HttpResponse> response = http_.send(http_request, cancel);
  if (!response) return fail(std::move(response).error());
  const std::string where = http_.url(http_request.path);
  if (auto bad = core::first_invalid_utf8(response->body)) {
    return fail(core::invalid_argument(
        "the server's reply is not valid UTF-8 (first bad byte at offset " + std::to_string(*bad) + ")",
        where));
  }
  nlohmann::json reply = nlohmann::json::parse(response->body, nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) {
    return fail(core::invalid_argument("the server's reply is not a JSON object", where));
  }

  Completion completion;
  completion.attempts = response->attempts;
  completion.model = reply.value("model", options_.model);
  const nlohmann::json* message = nullptr;
  if (options_.structured_output == StructuredOutput::kOllama) {
    if (auto it = reply.find("message"); it != reply.end()) message = &*it;
    completion.finish_reason = reply.value("done_reason", std::string());
    completion.usage.prompt = int_field(reply, "prompt_eval_count");
    completion.usage.completion = int_field(reply, "eval_count");
  } else {
    auto choices = reply.find("choices");
    if (choices != reply.end() && choices->is_array() && !choices->empty() && (*choices)[0].is_object()) {
      const nlohmann::json& choice = (*choices)[0];
      if (auto it = choice.find("message"); it != choice.end()) message = &*it;
      if (auto it = choice.find("finish_reason"); it != choice.end() && it->is_string()) {
        completion.finish_reason = it->get<std::string>();
      }
    }
    if (auto usage = reply.find("usage"); usage != reply.end()) {
      completion.usage.prompt = int_field(*usage, "prompt_tokens");
      completion.usage.completion = int_field(*usage, "completion_tokens");
    }
  }
  if (message == nullptr || !message->is_object() || !message->contains("content") ||
      !(*message)["content"].is_string()) {
    return fail(core::invalid_argument("the server's reply has no message content (expected " +
                                           std::string(options_.structured_output == StructuredOutput::kOllama
                                                           ? "message.content"
                                                           : "choices[0].message.content") +
                                           ")",
                                       where));
  }
  completion.text = (*message)["content"].get<std::string>();
  completion.latency = clock_->steady_now() - started;
  record(metrics_, model_label, "ok", completion.latency, completion.usage);
  return completion;
}

core::Result<std::vector<std::string>> OpenAiCompatibleModel::list_models(
    const core::CancellationToken* cancel) const {
  const bool ollama = options_.structured_output == StructuredOutput::kOllama;
  core::HttpHeaders headers;
  if (!options_.api_key.empty()) headers.emplace_back("Authorization", "Bearer " + options_.api_key);
  const std::string path = ollama ? "/api/tags" : "/models";
  core::Result<core::HttpResponse> response = http_.get(path, headers, cancel);
  if (!response) return response.error();
  nlohmann::json reply = nlohmann::json::parse(response->body, nullptr, false);
  const char* list_key = ollama ? "models" : "data";
  const char* id_key = ollama ? "name" : "id";
  if (reply.is_discarded() || !reply.is_object() || !reply.contains(list_key) ||
      !reply[list_key].is_array()) {
    return core::invalid_argument(std::string("the model list has no \"") + list_key + "\" array",
                                  http_.url(path));
  }
  std::vector<std::string> ids;
  for (const nlohmann::json& entry : reply[list_key]) {
    if (entry.is_object() && entry.contains(id_key) && entry[id_key].is_string()) {
      ids.push_back(entry[id_key].get<std::string>());
    }
  }
  return ids;
}

}  // namespace planfirst::llm
