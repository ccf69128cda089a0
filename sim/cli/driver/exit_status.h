// The exit statuses of a run (README.md, docs/errors.md).
#pragma once

namespace cli {

constexpr int kExitSuccess = 0;
constexpr int kExitFailure = 1;      // davinci-sim is wrong: an internal error, or --check beyond tolerance
constexpr int kExitUsage = 2;        // bad command line, program or config
constexpr int kExitCycleLimit = 3;   // --max-cycles stopped an unfinished run
constexpr int kExitEnvironment = 4;  // the machine failed: no temporary file, a file or pipe not writable

}  // namespace cli
