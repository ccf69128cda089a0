// --op: one operation instead of a program (dsl/frontend/single_op.h), from --op,
// its --shape sizes and --dtype.
#pragma once

#include <boost/program_options/variables_map.hpp>

#include "sim/cli/driver/run_options.h"

namespace cli {

// Sets opt.single_op and opt.program; 0, or the status of a usage error.
int parse_single_op(const boost::program_options::variables_map& vm, RunOptions& opt);

}  // namespace cli
