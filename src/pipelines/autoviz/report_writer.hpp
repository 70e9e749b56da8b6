// ReportWriter writes what an autoviz run produced into its output folder: plan.json (question,
// requirements, tools considered, plan, coverage, execution with repairs; table rows left out),
// one <step_id>.vl.json per chart, and report.md (the plan, what each step satisfies, the coverage
// verdict, the charts and the tables the steps saved). Files are written whole (temp file, then
// rename); an error names the file. Deterministic: the same state gives the same bytes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

// `state` is the autoviz graph's state after execute. Returns the paths written, in order.
core::Result<std::vector<std::string>> write_run_report(const core::Json& state, const std::filesystem::path& out_dir);

}  // namespace planfirst::autoviz
