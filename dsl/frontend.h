// The front end's public entry points: program text in, TaskGraph out.
// Every problem with the program (or its file) is thrown as CompileError,
// whose what() is the complete diagnostic to print.
#pragma once

#include <memory>
#include <string>

#include "dsl/diagnostics.h"
#include "dsl/source_location.h"
#include "dsl/task_graph.h"

namespace dsl {

TaskGraph elaborate_file(const std::string& path);
TaskGraph elaborate_source(std::shared_ptr<const SourceFile> src);

// Reads a program file; "PATH: error: cannot open file" if it cannot.
std::shared_ptr<const SourceFile> read_source_file(const std::string& path);

}  // namespace dsl
