// The SQL side every tool shares: running a statement with its errors named after the tool, and
// materializing a SELECT as the next relation ("TOOL_N", a temporary table) that becomes current.
// Values from a plan are always bound as parameters; identifiers always go through the data
// layer's quoting.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "data/query_result.hpp"
#include "data/value.hpp"
#include "pipelines/autoviz/tools/tool_context.hpp"
#include "pipelines/autoviz/tools/tool_output.hpp"
#include "pipelines/autoviz/tools/tool_params.hpp"

namespace planfirst::data {
struct SchemaProfile;
}

namespace planfirst::autoviz {

// `sql` on the context's database; an engine error keeps its code and gains the tool's name.
core::Result<data::QueryResult> run_query(ToolContext& ctx, const ToolParams& params, const std::string& sql,
                                          const std::vector<data::Value>& values = {});

// Creates the next relation from `select_sql` as a temporary table, makes it current and returns
// its first rows. The SELECT must order its rows (ORDER BY) wherever the engine could otherwise
// reorder them.
core::Result<ToolOutput> materialize(ToolContext& ctx, const ToolParams& params,
                                     const std::string& select_sql,
                                     const std::vector<data::Value>& values = {});

// Like materialize, but as a view: nothing is copied, and the engine computes the rows inside
// whichever query reads them. For row-wise transforms with no bound values; a view has no rowid,
// so tools that order by it read ordered_relation() (tool_relation.hpp). Its output previews the
// first ToolContext::preview_rows rows.
core::Result<ToolOutput> derive(ToolContext& ctx, const ToolParams& params, const std::string& select_sql);

// The current relation, unchanged, as the output of a step that has nothing to do (a preview).
core::Result<ToolOutput> unchanged(ToolContext& ctx, const ToolParams& params);

// Keeps a preview (LIMIT preview_rows + 1 on a relation) a plain streaming LIMIT: DuckDB rewrites
// a LIMIT above late_materialization_max_rows (default 50) into a semi-join on row ids, which on a
// 10M-row table costs ~2-4 ms instead of ~0.3 ms; raising the setting to the preview's size keeps
// previews out of that rewrite. The same rows either way, in insertion order. The setting holds for
// the connection; an engine without it keeps its plan. Before a run's steps.
void prepare_previews(ToolContext& ctx);

// Hands the tools the profile's spans of the DATE and TIMESTAMP columns (profiled_spans; not
// TIMESTAMP WITH TIME ZONE, whose days depend on the session's zone) when the profile names the
// current relation and counts its rows as it holds them now; otherwise there are none, and tools
// scan. (A file edited in place since planning, with the same row count, keeps the planning-time
// spans, as it keeps the planning-time plan.)
void adopt_profile_spans(ToolContext& ctx, const data::SchemaProfile& profile);

// The first `max_rows` rows of a result; sets `truncated` when there were more.
data::QueryResult first_rows(const data::QueryResult& result, std::size_t max_rows, bool& truncated);

// SELECT * REPLACE (EXPR AS "COLUMN", ...) FROM "RELATION": every row, some columns recomputed.
std::string select_replacing(std::string_view relation,
                             const std::vector<std::pair<std::string, std::string>>& column_expressions);

// "\"a\", \"b\"": quoted identifiers joined by commas; `prefix` goes before each ("s." -> s."a").
std::string quoted_list(const std::vector<std::string>& names, std::string_view prefix = {});

}  // namespace planfirst::autoviz
