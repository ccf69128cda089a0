// Checks shared by the library functions and the operations: each turns a
// bound argument into a C++ value or fails with a CompileError pointing at
// the argument (or at the offending element of a literal tuple).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/call_args.h"
#include "sim/arch/program.h"

namespace dsl {

// The location of element k of an argument written as a literal tuple or list.
SourceLoc element_loc(const Arg& arg, size_t k);

// A tuple/list of positive integers: "fn: shape must be a tuple of integers, got str".
std::vector<int64_t> shape_arg(const std::string& fn, const Arg& arg);

// 'float16' or 'float32': "fn: dtype must be 'float16' or 'float32', got 'x'".
arch::DType dtype_arg(const std::string& fn, const Arg& arg);

// A non-empty string: "fn: name must be a string, got int".
std::string name_arg(const std::string& fn, const Arg& arg);

}  // namespace dsl
