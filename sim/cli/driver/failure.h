// How a run that stopped with an exception ends: the message on stderr and
// the exit status (README.md "Exit status", docs/errors.md). Input errors
// never reach here (each reader reports its own, exit status 2); what does
// is either the machine failing (EnvironmentError, out of memory: status 4)
// or davinci-sim being wrong (everything else: status 1, worded as an
// internal error to report).
#pragma once

#include <exception>
#include <ostream>

namespace cli {

// Writes the message for `e` to `err` and returns the exit status.
int report_failure(const std::exception_ptr& e, std::ostream& err);

}  // namespace cli
