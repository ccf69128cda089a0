// Output files appear complete or not at all: written to a temporary name
// beside the target, then renamed over it.
#pragma once

#include <string>

namespace trace {

// Throws std::runtime_error("PATH: cannot write: <reason>") on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace trace
