// Output files appear complete or not at all: written to a temporary name
// beside the target, then renamed over it.
#pragma once

#include <functional>
#include <string>

#include "sim/trace/text_out.h"

namespace trace {

// Throws std::runtime_error("PATH: cannot write: <reason>") on failure.
void write_file_atomically(const std::string& path, const std::string& content);

// The same for a large file: `fill` writes the content to a TextOut that
// streams it to the temporary file in chunks. If `fill` throws, the
// temporary file is removed and the exception passes on.
void write_file_atomically(const std::string& path, const std::function<void(TextOut&)>& fill);

}  // namespace trace
