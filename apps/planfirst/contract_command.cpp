#include <CLI/CLI.hpp>

#include "planfirst/cli.hpp"

namespace planfirst::cli {
void add_contract_command(CLI::App&, CliContext&) {}
}  // namespace planfirst::cli
