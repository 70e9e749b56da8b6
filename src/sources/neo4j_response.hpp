// Neo4j's HTTP transactional API in both directions, as pure functions: neo4j_request_body writes
// {"statements":[{"statement": ..., "parameters": {...}}]} for one statement, and
// parse_neo4j_response reads {"results":[{"columns":[...],"data":[{"row":[...]}]}],"errors":[...]}
// into GraphRows (strings as they are, numbers and booleans as JSON text, null as "", lists and maps
// as compact JSON). A non-empty "errors" array is an Error chosen by the Neo4j status code.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "sources/graph_evidence.hpp"

namespace planfirst::sources {

// `parameters` are string-valued ({"id": "billing-engine"}); the statement's whitespace is collapsed
// to single spaces (older servers refuse line breaks inside a statement).
std::string neo4j_request_body(std::string_view statement,
                               const std::map<std::string, std::string>& parameters);

// The first statement's result. Errors name `url` and the Neo4j code: Neo.ClientError.Security.* ->
// kFailedPrecondition, other Neo.ClientError.* -> kInvalidArgument, Neo.TransientError.* and
// Neo.DatabaseError.* -> kUnavailable; a body that is not this shape -> kInvalidArgument with the
// JSON pointer at fault.
core::Result<GraphRows> parse_neo4j_response(std::string_view body, std::string_view url);

}  // namespace planfirst::sources
