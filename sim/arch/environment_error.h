// A failure of the machine the simulator runs on, not of the input or of
// davinci-sim: a temporary directory that cannot be created, a file or a
// pipe that cannot be written (a full disk, a directory removed meanwhile).
// The command line exits with status 4 for it (cli::kExitEnvironment), so
// that a script can tell "retry elsewhere" from "report a bug" (status 1).
#pragma once

#include <stdexcept>
#include <string>

namespace arch {

class EnvironmentError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace arch
