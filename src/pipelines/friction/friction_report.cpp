#include "pipelines/friction/friction_report.hpp"

#include <fmt/format.h>

#include <kainjow/mustache.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "core/file_text.hpp"
#include "core/number_text.hpp"

namespace planfirst::friction {
namespace {

namespace mstch = kainjow::mustache;

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

core::Json vega_lite(const std::string& title, core::Json values, core::Json mark, core::Json encoding) {
  return core::Json{{"$schema", "https://vega.github.io/schema/vega-lite/v5.json"},
                    {"title", title},
                    {"width", 560},
                    {"data", {{"values", std::move(values)}}},
                    {"mark", std::move(mark)},
                    {"encoding", std::move(encoding)}};
}

struct Chart {
  std::string name;  // file stem
  std::string title;
  core::Json spec;
};

std::vector<Chart> charts(const ReportInput& input) {
  core::Json drivers = core::Json::array();
  for (const DriverFigures& d : input.drivers) {
    drivers.push_back({{"driver", d.label},
                       {"lens", d.lens_title},
                       {"impact_x_ease", std::round(d.score * 100) / 100},
                       {"contacts", d.contacts}});
  }
  core::Json lenses = core::Json::array();
  std::map<std::string, std::int64_t> per_lens;
  for (const DriverFigures& d : input.drivers) per_lens[d.lens_title] += d.contacts;
  for (const auto& [lens, n] : per_lens) lenses.push_back({{"lens", lens}, {"contacts", n}});
  core::Json months = core::Json::array();
  for (const MonthCount& m : input.months)
    months.push_back({{"month", m.month}, {"lens", m.lens}, {"contacts", m.contacts}});
  return {
      {"drivers", "Drivers by Impact x Ease",
       vega_lite("Drivers by Impact x Ease", std::move(drivers), "bar",
                 {{"x", {{"field", "impact_x_ease"}, {"type", "quantitative"}, {"title", "Impact x Ease"}}},
                  {"y", {{"field", "driver"}, {"type", "nominal"}, {"sort", "-x"}, {"title", nullptr}}},
                  {"color", {{"field", "lens"}, {"type", "nominal"}}}})},
      {"lenses", "Contacts per lens",
       vega_lite("Contacts per lens", std::move(lenses), "bar",
                 {{"x", {{"field", "contacts"}, {"type", "quantitative"}}},
                  {"y", {{"field", "lens"}, {"type", "nominal"}, {"sort", "-x"}}}})},
      {"monthly", "Contacts per month and lens",
       vega_lite("Contacts per month and lens", std::move(months), {{"type", "line"}, {"point", true}},
                 {{"x", {{"field", "month"}, {"type", "ordinal"}}},
                  {"y", {{"field", "contacts"}, {"type", "quantitative"}}},
                  {"color", {{"field", "lens"}, {"type", "nominal"}}}})},
  };
}

std::string integer(std::int64_t n) {
  return core::format_integer(n, 1000);
}

mstch::data list(const std::vector<std::string>& items) {
  mstch::data out{mstch::data::type::list};
  for (const std::string& item : items) out << mstch::data{item};
  return out;
}

std::vector<std::string> prep_lines(const core::Json& prep) {
  std::vector<std::string> lines;
  auto n = [&](const char* key) { return integer(prep.value(key, std::int64_t{0})); };
  lines.push_back("rows read: " + n("rows_in") + "; kept: " + n("rows_kept"));
  lines.push_back("dropped: " + n("missing_id") + " without a contact id, " + n("bad_timestamp") +
                  " without a readable timestamp, " + n("bad_handle_time") + " without a handle time, " +
                  n("outside_filters") + " outside the filters");
  lines.push_back("filters: " + prep.value("filters", core::Json::object()).dump());
  lines.push_back("contacts no driver matched (unattributed): " + n("unattributed"));
  return lines;
}

}  // namespace

std::string drivers_csv(const std::vector<DriverFigures>& drivers, std::int64_t total) {
  std::string csv =
      "rank,lens,driver_id,driver,contacts,share_of_total,repeats,repeat_rate,avg_handle_minutes,transferred,"
      "transfer_rate,resolved,resolution_rate,handle_seconds,impact,ease,impact_x_ease\n";
  for (const DriverFigures& d : drivers) {
    csv += fmt::format("{},{},{},{},{},{:.4f},{},{:.4f},{:.2f},{},{:.4f},{},{:.4f},{},{:.2f},{},{:.2f}\n",
                       d.rank, csv_field(d.lens), csv_field(d.id), csv_field(d.label), d.contacts,
                       d.share(total), d.repeats, d.repeat_rate(), d.avg_handle_minutes(), d.transferred,
                       d.transfer_rate(), d.resolved, d.resolution_rate(), d.handle_seconds, d.impact, d.ease,
                       d.score);
  }
  return csv;
}

core::Result<ReportFiles> write_report(const std::filesystem::path& output_dir, const ReportInput& input,
                                       const core::AssetStore& assets, const autoviz::SvgRenderer* renderer) {
  core::Result<std::string> page = assets.read(kReportTemplateAsset);
  if (!page) return page.error();
  core::Result<std::string> css = assets.read(kReportStyleAsset);
  if (!css) return css.error();
  std::error_code ec;
  std::filesystem::create_directories(output_dir / "charts", ec);
  if (ec)
    return core::invalid_argument("cannot create the folder: " + ec.message(),
                                  (output_dir / "charts").string());

  ReportFiles files;
  files.drivers = output_dir / "drivers.csv";
  if (core::Result<void> w =
          core::write_file_atomically(files.drivers, drivers_csv(input.drivers, input.total_contacts));
      !w) {
    return w.error();
  }
  mstch::data chart_list{mstch::data::type::list};
  for (const Chart& chart : charts(input)) {
    const std::string spec = chart.spec.dump(2);
    const std::filesystem::path spec_file = output_dir / "charts" / (chart.name + ".vl.json");
    if (core::Result<void> w = core::write_file_atomically(spec_file, spec + "\n"); !w) return w.error();
    files.charts.push_back(spec_file);
    mstch::data item;
    item.set("title", chart.title);
    item.set("spec_file", "charts/" + chart.name + ".vl.json");
    item.set("spec", spec);
    if (renderer != nullptr && renderer->available()) {
      core::Result<std::string> svg = renderer->render(chart.spec.dump());
      if (svg) {
        const std::filesystem::path svg_file = output_dir / "charts" / (chart.name + ".svg");
        if (core::Result<void> w = core::write_file_atomically(svg_file, *svg); !w) return w.error();
        files.charts.push_back(svg_file);
        item.set("svg", *svg);
      } else {
        files.notices.push_back(chart.name + ": SVG skipped: " + svg.error().message);
      }
    } else if (renderer != nullptr) {
      files.notices.push_back("SVG skipped: " + renderer->unavailable_reason());
    }
    chart_list << item;
  }

  mstch::data drivers{mstch::data::type::list};
  for (const DriverFigures& d : input.drivers) {
    mstch::data row;
    row.set("rank", std::to_string(d.rank));
    row.set("lens", d.lens_title);
    row.set("label", d.label);
    row.set("contacts", integer(d.contacts));
    row.set("share", percent(d.share(input.total_contacts)));
    row.set("repeat_rate", percent(d.repeat_rate()));
    row.set("avg_handle", fmt::format("{:.1f}", d.avg_handle_minutes()));
    row.set("transfer_rate", percent(d.transfer_rate()));
    row.set("resolution_rate", percent(d.resolution_rate()));
    row.set("impact", one_decimal(d.impact));
    row.set("ease", std::to_string(d.ease));
    row.set("score", one_decimal(d.score));
    drivers << row;
  }
  mstch::data lenses{mstch::data::type::list};
  for (const core::Json& lens : input.synthesis.value("lenses", core::Json::array())) {
    mstch::data row;
    row.set("title", lens.value("title", ""));
    row.set("contacts", integer(lens.value("contacts", std::int64_t{0})));
    row.set("share", percent(lens.value("share", 0.0)));
    lenses << row;
  }
  mstch::data columns{mstch::data::type::list};
  const core::Json mapping =
      input.dataset.is_object() ? input.dataset.value("mapping", core::Json::object()) : core::Json::object();
  const core::Json mapped = mapping.value("columns", core::Json::object());
  for (auto it = mapped.begin(); it != mapped.end(); ++it) {
    mstch::data row;
    row.set("role", it.key());
    row.set("column", it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
    columns << row;
  }
  const core::Json& prep = input.prep;
  mstch::data view;
  view.set("css", *css);
  view.set("dataset_name", std::filesystem::path(input.dataset_path).filename().string());
  view.set("dataset_path", input.dataset_path);
  view.set("contacts", integer(input.total_contacts));
  view.set("rows_in", integer(prep.value("rows_in", std::int64_t{0})));
  view.set("period", prep.value("period_from", "") + " to " + prep.value("period_to", ""));
  view.set("headline", input.synthesis.value("headline", ""));
  view.set("lens_line", input.synthesis.value("lens_line", ""));
  view.set("formula", kImpactEaseFormula);
  view.set("drivers", drivers);
  view.set("drivers_file", "drivers.csv");
  view.set("lenses", lenses);
  view.set("charts", chart_list);
  view.set("notices", list(files.notices));
  view.set("columns", columns);
  view.set("handle_time_unit", mapping.value("handle_time_unit", ""));
  view.set("prep_lines", list(prep_lines(prep)));
  view.set("critique", input.critique.empty() ? "Not run (critique_enabled is false)." : input.critique);
  mstch::mustache compiled(*page);
  if (!compiled.is_valid())
    return core::internal_error("report template: " + compiled.error_message(), kReportTemplateAsset);
  const std::string html = compiled.render(view);
  files.report = output_dir / "friction_report.html";
  if (core::Result<void> w = core::write_file_atomically(files.report, html); !w) return w.error();
  return files;
}

}  // namespace planfirst::friction
