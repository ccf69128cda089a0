// The run driver: compile (or read) a program, check it, simulate it on the
// SystemC model, write the outputs asked for and report. The one place that
// joins the front end (dsl/) and the model (sim/hw); the command line
// (sim/cli/main.cpp) is a thin layer over it.
#pragma once

#include "sim/cli/driver/run_options.h"

namespace cli {

// Says what went wrong on stderr and returns the exit status
// (sim/cli/driver/exit_status.h). The report goes to stdout. Throws
// std::exception for a failure of the simulator itself or of the disk
// (exit status 1 for the caller). SystemC elaborates once per process: one
// simulating run per process.
int run(const RunOptions& opt);

}  // namespace cli
