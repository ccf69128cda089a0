// The davinci-sim command line (Boost.Program_options) into the driver's
// plain RunOptions.
#pragma once

#include <optional>

#include "sim/cli/driver/run_options.h"

namespace cli {

// Fills `opt` from the arguments (the profile subcommand already
// rewritten). The exit status when the command ends here: --help,
// --version, --help-config (0) or a usage error, said on stderr (2);
// nothing when `opt` is to be run.
std::optional<int> parse_command_line(int argc, char** argv, RunOptions& opt);

}  // namespace cli
