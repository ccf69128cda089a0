// The command line's usage errors: the message, the usage lines and the
// way to --help, on stderr.
#pragma once

#include <string>

namespace cli {

extern const char* const kUsage;

// Returns kExitUsage.
int usage_error(const std::string& message);

}  // namespace cli
