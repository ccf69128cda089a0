// --op: one operation instead of a program (dsl/frontend/single_op.h), from --op,
// its --shape sizes and --dtype.
#pragma once

#include <boost/program_options/variables_map.hpp>

#include "sim/cli/driver/run_options.h"

namespace cli {

// Sets opt.single_op and opt.program; 0, or the status of a usage error.
int parse_single_op(const boost::program_options::variables_map& vm, RunOptions& opt);

// --topology FILE.csv (dsl/frontend/topology.h): reads the file and sets
// opt.topology, opt.single_op (its program) and opt.program; 0, or exit
// status 2 with "FILE:LINE: what is wrong" for a bad file.
int parse_topology_option(const boost::program_options::variables_map& vm, RunOptions& opt);

}  // namespace cli
