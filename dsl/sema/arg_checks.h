// Checks shared by the library functions and the operations: each turns a
// bound argument into a C++ value or fails with a CompileError pointing at
// the argument (or at the offending element of a literal tuple). `fn` is the
// message prefix ("conv2d"), `what` the parameter as messages name it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/sema/call_args.h"
#include "sim/arch/program.h"

namespace dsl {

// The location of element k of an argument written as a literal tuple or list.
SourceLoc element_loc(const Arg& arg, size_t k);

// A tuple/list of positive integers: "fn: shape must be a tuple of integers, got str".
std::vector<int64_t> shape_arg(const std::string& fn, const Arg& arg);

// "fn: shape (...) is too large" when the shape's bytes (float32 at most)
// do not fit 64 bits; shape_arg checks this itself.
void require_countable(const std::string& fn, const std::vector<int64_t>& shape, const SourceLoc& loc);

// 'float16'/'fp16' or 'float32'/'fp32':
// "fn: dtype must be 'float16', 'bfloat16' or 'float32', got 'x'".
arch::DType dtype_arg(const std::string& fn, const Arg& arg);

// A non-empty string: "fn: name must be a string, got int".
std::string name_arg(const std::string& fn, const Arg& arg);

// An integer of at least `min` (0 or 1): "fn: stride must be an integer, got
// str", "fn: stride must be positive, got 0", "fn: padding must be
// non-negative, got -1". A bool is not accepted as an integer.
int64_t int_arg(const std::string& fn, const Arg& arg, const std::string& what, int64_t min);

// An integer or a pair of integers, each at least `min`, as the pair the
// operation means: stride=2 is (2, 2). "fn: stride must be an integer or a
// pair of integers, got str", "fn: stride must have 2 values, got 3",
// "fn: stride[1] must be positive, got 0" (at the element).
std::vector<int64_t> int_pair_arg(const std::string& fn, const Arg& arg, const std::string& what, int64_t min);

// A tuple or list of integers of any sign (axes, permutations, reshape
// targets; the caller checks the values): "fn: perm must be a tuple of
// integers, got int", "fn: perm[1] must be an integer, got str".
std::vector<int64_t> int_list_arg(const std::string& fn, const Arg& arg, const std::string& what);

// True or False: "fn: prefetch must be True or False, got 1".
bool bool_arg(const std::string& fn, const Arg& arg, const std::string& what);

// A positive int or float: "fn: eps must be a positive number, got 0".
double positive_real_arg(const std::string& fn, const Arg& arg, const std::string& what);

// One of `choices`: "fn: engine must be 'vector' or 'dma', got 'cube'".
std::string choice_arg(const std::string& fn, const Arg& arg, const std::string& what,
                       const std::vector<std::string>& choices);

// The layouts layout= accepts: 'NCHW' and 'NHWC' (images; shapes stay in
// the order the layout names) and 'fractal' (the cube unit's tiled format).
const std::vector<std::string>& valid_layouts();

// layout= for a tensor of `shape`: one of valid_layouts(), or "" for None.
// "fn: layout must be 'NCHW', 'NHWC' or 'fractal', got 'x'", "fn: layout
// 'NCHW' needs a 4-D tensor, got (64, 32)", "fn: layout 'fractal' needs at
// least 2 dimensions, got (64,)".
std::string layout_arg(const std::string& fn, const Arg& arg, const std::vector<int64_t>& shape);

// "'a' or 'b'", "'a', 'b' or 'c'".
std::string quoted_choices(const std::vector<std::string>& choices);

}  // namespace dsl
