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
// `params` binds pypo.param constants by name to the text of --param
// layers=2, read as the type of the constant's default; a binding naming
// no pypo.param is likewise an error naming only the file.
TaskGraph elaborate_file(const std::string& path, const std::map<std::string, std::vector<int64_t>>& shapes = {},
                         const std::map<std::string, std::string>& params = {});
TaskGraph elaborate_source(std::shared_ptr<const SourceFile> src,
                           const std::map<std::string, std::vector<int64_t>>& shapes = {},
                           const std::map<std::string, std::string>& params = {});

// Parses the text of one --shape option, "x=1,3,224,224", into `name` and
// `dims` (each a positive integer). Returns false and sets `error` (e.g.
// "expected NAME=D1,D2,..., got 'x'") otherwise.
bool parse_shape_option(const std::string& text, std::string& name, std::vector<int64_t>& dims, std::string& error);

// Parses the text of one --param option, "layers=2", into `name` (letters,
// digits and '_', not starting with a digit) and `value` (any text, read
// by the program's type later). Returns false and sets `error` otherwise.
bool parse_param_option(const std::string& text, std::string& name, std::string& value, std::string& error);

// Reads a program file; "PATH: error: cannot open file" if it cannot.
std::shared_ptr<const SourceFile> read_source_file(const std::string& path);

}  // namespace dsl
