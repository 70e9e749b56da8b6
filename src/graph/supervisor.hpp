// The supervisor pattern of seed 003 §4 as wiring any pipeline can use: the supervisor names the
// next worker in a state key (its delta's `next_agent`), every worker returns to the supervisor,
// except workers in a fixed chain (a fan-out -> the node that merges it, say) that go on to the next
// link. The helper only adds edges; the nodes themselves are added as usual.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "graph/compiled_graph.hpp"
#include "graph/graph_builder.hpp"

namespace planfirst::graph {

struct SupervisorLayout {
  std::string supervisor;
  std::vector<std::string> workers;
  std::vector<std::pair<std::string, std::string>> chains;  // fixed edges from -> to, between workers
  std::string route_key = "next_agent";                     // state key the supervisor routes by
  std::string finish_value = std::string(kEnd);             // route_key value that ends the run
};

// Routes by `layout.route_key`: a worker's name goes to it, `finish_value` to kEnd; anything else
// is kInvalidArgument naming the value and the workers.
Router supervisor_router(const SupervisorLayout& layout);

// Adds the supervisor's conditional edges (every worker and kEnd) and each worker's edge: its chain
// successor when it has one, else back to the supervisor.
void add_supervisor_edges(GraphBuilder& builder, const SupervisorLayout& layout);

}  // namespace planfirst::graph
