#include "support/gitlab_test_server.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <stdexcept>

namespace planfirst::test_support {
namespace {

using nlohmann::json;

json read_json(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("GitLabTestServer: cannot read " + file.string());
  return json::parse(in);
}

RestReply error_reply(int status, const std::string& message) {
  return RestReply::json(status, json{{"error", message}}.dump());
}

// A query parameter that must be a timestamp when present; nullopt when absent. Throws on a bad value.
struct BadParam {
  std::string name;
};
std::optional<long long> time_param(const RestRequest& request, const char* name) {
  if (!request.has_param(name)) return std::nullopt;
  std::optional<long long> value = epoch_seconds(request.param(name));
  if (!value) throw BadParam{name};
  return value;
}

bool in_range(const json& record, const char* field, std::optional<long long> after,
              std::optional<long long> before) {
  if (!after && !before) return true;
  const std::optional<long long> at = epoch_seconds(record.value(field, std::string()));
  if (!at) return false;
  return (!after || *at >= *after) && (!before || *at <= *before);
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// `author`: a commit whose author name or email holds the text, in any case.
bool by_commit_author(const RestRequest& request, const json& commit) {
  if (!request.has_param("author")) return true;
  const std::string wanted = lower(request.param("author"));
  return lower(commit.value("author_name", "")).find(wanted) != std::string::npos ||
         lower(commit.value("author_email", "")).find(wanted) != std::string::npos;
}

// `assignee_username` (one name, as GitLab's free tier takes) and `author_username`.
bool by_people(const RestRequest& request, const json& record) {
  if (request.has_param("assignee_username")) {
    const std::string wanted = lower(request.param("assignee_username"));
    if (wanted.find(',') != std::string::npos) throw BadParam{"assignee_username"};
    const bool assigned =
        std::any_of(record["assignees"].begin(), record["assignees"].end(),
                    [&](const json& user) { return lower(user.value("username", "")) == wanted; });
    if (!assigned) return false;
  }
  if (request.has_param("author_username")) {
    if (lower(record["author"].value("username", "")) != lower(request.param("author_username")))
      return false;
  }
  return true;
}

}  // namespace

struct GitLabTestServer::Fixtures {
  struct Project {
    json meta;
    std::map<std::string, json> records;  // "repository/commits", "issues", "merge_requests"
  };
  std::vector<Project> projects;
  GitLabPaging paging = GitLabPaging::kNextPageHeader;

  const Project* find(const std::string& id) const {
    for (const Project& project : projects) {
      if (project.meta["path_with_namespace"] == id || std::to_string(project.meta["id"].get<int>()) == id) {
        return &project;
      }
    }
    return nullptr;
  }

  RestReply answer(const RestRequest& request) const {
    static const std::regex route("^/api/v4/projects/([^/]+)/(repository/commits|issues|merge_requests)$");
    std::smatch match;
    if (!std::regex_match(request.raw_path, match, route)) return error_reply(404, "404 Not Found");
    const Project* project = find(decode_percent(match[1].str(), false));
    if (project == nullptr) return RestReply::json(404, R"({"message":"404 Project Not Found"})");
    const std::string endpoint = match[2].str();
    try {
      return page(request, filter(request, endpoint, project->records.at(endpoint)));
    } catch (const BadParam& bad) {
      return error_reply(400, bad.name + " is invalid");
    }
  }

  static json filter(const RestRequest& request, const std::string& endpoint, const json& records) {
    json kept = json::array();
    if (endpoint == "repository/commits") {
      const auto since = time_param(request, "since"), until = time_param(request, "until");
      for (const json& commit : records) {
        if (in_range(commit, "committed_date", since, until) && by_commit_author(request, commit))
          kept.push_back(commit);
      }
      return kept;
    }
    const std::string state = request.has_param("state") ? request.param("state") : "all";
    const bool known = state == "all" || state == "opened" || state == "closed" ||
                       (endpoint == "merge_requests" && (state == "merged" || state == "locked"));
    if (!known) throw BadParam{"state"};
    const auto created_after = time_param(request, "created_after");
    const auto created_before = time_param(request, "created_before");
    const auto updated_after = time_param(request, "updated_after");
    const auto updated_before = time_param(request, "updated_before");
    for (const json& record : records) {
      if (state != "all" && record["state"] != state) continue;
      if (!in_range(record, "created_at", created_after, created_before)) continue;
      if (!in_range(record, "updated_at", updated_after, updated_before)) continue;
      if (!by_people(request, record)) continue;
      kept.push_back(record);
    }
    return kept;
  }

  RestReply page(const RestRequest& request, const json& records) const {
    auto number = [&](const char* name, int fallback) {
      if (!request.has_param(name)) return fallback;
      try {
        return std::stoi(request.param(name));
      } catch (const std::exception&) {
        throw BadParam{name};
      }
    };
    const int per_page = std::clamp(number("per_page", 20), 1, 100);
    const int page = std::max(number("page", 1), 1);
    const int total = static_cast<int>(records.size());
    const int total_pages = std::max(1, (total + per_page - 1) / per_page);
    json body = json::array();
    for (int i = (page - 1) * per_page; i < std::min(total, page * per_page); ++i) body.push_back(records[i]);

    RestReply reply = RestReply::json(200, body.dump());
    auto link = [&](int to, const char* rel) {
      std::string url = "http://127.0.0.1" + request.raw_path + "?";
      for (const auto& [name, value] : request.params) {
        if (name != "page") url += name + "=" + value + "&";
      }
      return "<" + url + "page=" + std::to_string(to) + ">; rel=\"" + rel + "\"";
    };
    std::string links = link(1, "first") + ", " + link(total_pages, "last");
    if (page < total_pages) links = link(page + 1, "next") + ", " + links;
    if (page > 1) links = link(page - 1, "prev") + ", " + links;
    reply.headers.emplace_back("Link", links);
    if (paging == GitLabPaging::kNextPageHeader) {
      reply.headers.emplace_back("X-Page", std::to_string(page));
      reply.headers.emplace_back("X-Per-Page", std::to_string(per_page));
      reply.headers.emplace_back("X-Next-Page", page < total_pages ? std::to_string(page + 1) : "");
      reply.headers.emplace_back("X-Prev-Page", page > 1 ? std::to_string(page - 1) : "");
      reply.headers.emplace_back("X-Total", std::to_string(total));
      reply.headers.emplace_back("X-Total-Pages", std::to_string(total_pages));
    }
    return reply;
  }
};

GitLabTestServer::GitLabTestServer(GitLabPaging paging) : fixtures_(std::make_unique<Fixtures>()) {
  fixtures_->paging = paging;
  const std::filesystem::path root = std::filesystem::path(PLANFIRST_TEST_FIXTURES) / "gitlab";
  std::vector<std::filesystem::path> folders;
  for (const auto& entry : std::filesystem::directory_iterator(root)) folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());
  for (const std::filesystem::path& folder : folders) {
    Fixtures::Project project;
    project.meta = read_json(folder / "project.json");
    project.records["repository/commits"] = read_json(folder / "commits.json");
    project.records["issues"] = read_json(folder / "issues.json");
    project.records["merge_requests"] = read_json(folder / "merge_requests.json");
    fixtures_->projects.push_back(std::move(project));
  }
  const Fixtures* fixtures = fixtures_.get();
  server_ = std::make_unique<RestTestServer>(
      AuthCheck{"PRIVATE-TOKEN", kToken, R"({"message":"401 Unauthorized"})"},
      [fixtures](const RestRequest& request) { return fixtures->answer(request); });
}

GitLabTestServer::~GitLabTestServer() = default;

}  // namespace planfirst::test_support
