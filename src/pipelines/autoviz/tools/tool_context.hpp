// ToolContext is what the autoviz tools of seed 002 §7 run against: the database, the relation the
// next step reads, the folder files go to and the log of safe repairs made on the way. Each tool
// that produces a table materializes it as a new relation ("aggregate_3") and makes it current, so
// a plan's steps chain; charts read the current relation and leave it. The caller owns the context
// and the database it borrows; one context serves one run on one thread.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "data/query_result.hpp"
#include "data/temporal_span.hpp"

namespace planfirst::data {
class Database;
}

namespace planfirst::autoviz {

// A safe repair (seed §7: missing df, column-name casing, default params), kept with its provenance.
struct ToolRepair {
  std::string tool;    // "aggregate"
  std::string param;   // "metrics"
  std::string before;  // "Revenue"
  std::string after;   // "revenue"
  std::string reason;  // "column-name casing"
};

struct ToolContext {
  // REQUIRES: `database` outlives the context.
  explicit ToolContext(data::Database& database, std::string relation = {},
                       std::filesystem::path output_dir = {})
      : db(database), relation(std::move(relation)), output_dir(std::move(output_dir)) {}

  data::Database& db;
  std::string relation;              // the table the next tool reads; empty until a dataset is loaded
  std::filesystem::path output_dir;  // where save_table writes; created on first write
  std::vector<ToolRepair> repairs;   // in the order they were made
  std::size_t max_rows = 10000;      // rows a ToolOutput table holds at most (the relation keeps all)
  std::size_t preview_rows = 100;    // rows the output of a row-wise view or an unchanged relation holds
  int steps = 0;                     // relations made so far; numbers the next one
  // The columns (no values) of the relations described so far, by name; cleared whenever a tool
  // makes a relation (create_relation in tool_sql.hpp, load_dataset), so a description never
  // outlives what it describes.
  std::map<std::string, std::vector<data::Column>, std::less<>> described;
  // The spans the dataset's profile measured for the DATE and TIMESTAMP columns of
  // `profiled_relation` (the table as loaded, every row; adopt_profile_spans in tool_sql.hpp):
  // time_bucket reads a span here instead of scanning the column when its input is that relation.
  std::string profiled_relation;
  std::map<std::string, data::TemporalSpan, std::less<>> profiled_spans;
};

}  // namespace planfirst::autoviz
