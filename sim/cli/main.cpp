// davinci-sim: compiles a PyPTO program for the configured hardware,
// simulates it on the SystemC model and reports where the cycles went.
// This is the command line only: the options (options.cpp) become a
// cli::RunOptions, and the run driver (driver/, a library) does the rest.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <systemc>

#include "sim/cli/driver/exit_status.h"
#include "sim/cli/driver/failure.h"
#include "sim/cli/driver/run.h"
#include "sim/cli/options.h"
#include "sim/cli/profile_subcommand.h"

int sc_main(int argc, char* argv[]) {
    std::vector<std::string> args;
    if (!cli::rewrite_profile_subcommand(argc, argv, args)) return cli::kExitUsage;
    std::vector<char*> arg_ptrs;
    for (std::string& a : args) arg_ptrs.push_back(a.data());
    cli::RunOptions opt;
    if (std::optional<int> done = cli::parse_command_line(int(arg_ptrs.size()), arg_ptrs.data(), opt)) return *done;
    try {
        const int status = cli::run(opt);
        // A report lost to a full disk or a closed pipe is a failure, not
        // a success with nothing to show.
        if (!(std::cout << std::flush)) {
            std::cerr << "davinci-sim: error: cannot write the standard output\n";
            return cli::kExitEnvironment;
        }
        return status;
    } catch (...) {
        return cli::report_failure(std::current_exception(), std::cerr);
    }
}

// Our own main, ahead of libsystemc's: the SystemC banner is printed before
// sc_main runs and would garble reports and JSON piped from stdout.
int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
