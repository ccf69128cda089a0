// The exit statuses of a run (README.md, docs/errors.md).
#pragma once

namespace cli {

constexpr int kExitSuccess = 0;
constexpr int kExitFailure = 1;     // the simulation itself failed
constexpr int kExitUsage = 2;       // bad command line, program or config
constexpr int kExitCycleLimit = 3;  // --max-cycles stopped an unfinished run

}  // namespace cli
