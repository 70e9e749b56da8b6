#include "pipelines/autoviz/report_writer.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <system_error>

#include "core/file_text.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;

core::Result<void> write_whole(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path temp = path.string() + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) return core::Error{core::ErrorCode::kUnavailable, "cannot write " + temp.string(), temp.string()};
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) return core::Error{core::ErrorCode::kUnavailable, "cannot write " + path.string() + ": " + ec.message(), path.string()};
  return core::ok();
}

std::string joined(const Json& list) {
  std::string text;
  if (!list.is_array()) return text;
  for (const Json& item : list) text += (text.empty() ? "" : ", ") + (item.is_string() ? item.get<std::string>() : item.dump());
  return text;
}

Json plan_document(const Json& state) {
  Json document = Json::object();
  for (const char* key : {"question", "dataset", "table", "intent", "requirements", "tools", "plan", "coverage"}) {
    if (state.contains(key)) document[key] = state[key];
  }
  Json steps = Json::array();
  for (Json step : state.value("execution", Json::object()).value("steps", Json::array())) {
    step.erase("table");
    step.erase("chart");
    steps.push_back(std::move(step));
  }
  document["execution"] = Json{{"steps", steps}};
  return document;
}

std::string markdown(const Json& state, const std::vector<std::string>& charts) {
  std::ostringstream out;
  out << "# " << state.value("question", "") << "\n\nData: `" << state.value("dataset", "") << "`\n\n## Requirements\n\n";
  const Json requirements = state.value("requirements", Json::object());
  for (const char* key : {"metrics", "group_by", "analysis", "outputs"}) {
    out << "- " << key << ": " << joined(requirements.value(key, Json::array())) << "\n";
  }
  out << "- time: " << requirements.value("time", Json::object()).dump() << "\n\n## Plan\n\n";
  int n = 0;
  for (const Json& step : state.value("plan", Json::object()).value("steps", Json::array())) {
    out << ++n << ". `" << step.value("tool", "") << "` " << step.value("params", Json::object()).dump()
        << " satisfies " << joined(step.value("satisfies", Json::array())) << "\n";
  }
  const Json coverage = state.value("coverage", Json::object());
  out << "\n## Coverage: " << (coverage.value("complete", false) ? "complete" : "INCOMPLETE") << "\n\n";
  for (const Json& line : coverage.value("lines", Json::array())) {
    out << "- " << line.value("requirement", "") << " -> " << joined(line.value("steps", Json::array()))
        << (line.value("covered", false) ? " (OK)" : " (MISSING)") << "\n";
  }
  out << "\n## Results\n\n";
  for (const std::string& chart : charts) out << "- chart: [" << chart << "](" << chart << ")\n";
  for (const Json& step : state.value("execution", Json::object()).value("steps", Json::array())) {
    for (const Json& file : step.value("files", Json::array())) {
      const std::string path = file.get<std::string>();
      if (path.size() > 3 && path.substr(path.size() - 3) == ".md") {
        core::Result<std::string> table = core::read_file_text(path);
        if (table) out << "\n" << *table << "\n";
      }
    }
    if (step.contains("error")) out << "- step " << step.value("step_id", "") << " failed: " << step["error"].get<std::string>() << "\n";
  }
  return out.str();
}

}  // namespace

core::Result<std::vector<std::string>> write_run_report(const Json& state, const std::filesystem::path& out_dir) {
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return core::Error{core::ErrorCode::kUnavailable, "cannot create " + out_dir.string() + ": " + ec.message(), out_dir.string()};
  std::vector<std::string> written;
  std::vector<std::string> charts;
  for (const Json& step : state.value("execution", Json::object()).value("steps", Json::array())) {
    if (!step.contains("chart")) continue;
    const std::string name = step.value("step_id", "chart") + ".vl.json";
    if (auto ok = write_whole(out_dir / name, step["chart"].dump(2) + "\n"); !ok) return ok.error();
    charts.push_back(name);
    written.push_back((out_dir / name).string());
  }
  for (const Json& step : state.value("execution", Json::object()).value("steps", Json::array())) {
    for (const Json& file : step.value("files", Json::array())) written.push_back(file.get<std::string>());
  }
  if (auto ok = write_whole(out_dir / "plan.json", plan_document(state).dump(2) + "\n"); !ok) return ok.error();
  written.push_back((out_dir / "plan.json").string());
  if (auto ok = write_whole(out_dir / "report.md", markdown(state, charts)); !ok) return ok.error();
  written.push_back((out_dir / "report.md").string());
  return written;
}

}  // namespace planfirst::autoviz
