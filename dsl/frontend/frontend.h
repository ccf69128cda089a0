// The front end's public entry points: program text in, TaskGraph out.
// Every problem with the program (or its file) is thrown as CompileError,
// whose what() is the complete diagnostic to print.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/support/diagnostics.h"
#include "dsl/support/source_location.h"

namespace dsl {

// `shapes` binds None dimensions of inputs and weights by tensor name (the
// CLI's --shape x=1,3,224,224). A binding whose rank or fixed dimensions
// disagree with the program is an error at the declaration; one that names
// no input or weight is an error naming only the file, reported after the
// program has run: "prog.pto: error: --shape y=1,2: the program has no
// input or weight named 'y'".
TaskGraph elaborate_file(const std::string& path, const std::map<std::string, std::vector<int64_t>>& shapes = {});
TaskGraph elaborate_source(std::shared_ptr<const SourceFile> src,
                           const std::map<std::string, std::vector<int64_t>>& shapes = {});

// Parses the text of one --shape option, "x=1,3,224,224", into `name` and
// `dims` (each a positive integer). Returns false and sets `error` (e.g.
// "expected NAME=D1,D2,..., got 'x'") otherwise.
bool parse_shape_option(const std::string& text, std::string& name, std::vector<int64_t>& dims, std::string& error);

// Reads a program file; "PATH: error: cannot open file" if it cannot.
std::shared_ptr<const SourceFile> read_source_file(const std::string& path);

}  // namespace dsl
