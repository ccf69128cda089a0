// One driver run (cli::run) in a forked child process, its report and
// messages read back by the parent. SystemC elaborates once per process
// (DESIGN.md section 3), so a process that calls the simulator many times
// (the Python interpreter) never elaborates it itself: each run is a fresh
// child that does, and exits.
#pragma once

#include <string>

#include "sim/cli/driver/run_options.h"

namespace pymodule {

struct ChildRun {
    // The run's exit status (sim/cli/driver/exit_status.h), or -N when
    // signal N ended the child (SIGKILL after a timeout).
    int status = 0;
    bool timed_out = false;
    std::string report;       // the --report-json text; "" unless status is 0
    std::string stdout_text;  // what the run printed (print, the functional report)
    std::string stderr_text;  // its diagnostics, exactly as davinci-sim writes them
    double cpu_seconds = 0;   // the child's user + system time
    // The child's peak resident memory. An upper bound on the simulation's
    // own: a forked child starts with the pages it shares with the parent.
    long max_rss_kib = 0;
};

// Runs `opt` with its report written as JSON and its text report off
// (quiet). timeout_seconds <= 0: no limit; else the child is killed
// (SIGKILL) when it runs longer. Throws std::system_error when no
// temporary folder or no child process can be made.
ChildRun run_in_child(cli::RunOptions opt, double timeout_seconds);

}  // namespace pymodule
