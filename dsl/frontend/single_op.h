// Single-operation programs, for checking the cube against external tables
// (SCALE-Sim topologies, vendor cost models): `davinci-sim --op matmul
// --shape M,K,N` and `--op conv2d --shape H,W,C,R,S,F,stride` become a
// one-operation .pto program, compiled and simulated like any other.
//
// * matmul: a (M, K) @ b (K, N) -> c (M, N).
// * conv2d: SCALE-Sim's layer description: an H x W input of C channels,
//   F filters of R x S, the stride, no padding, and SCALE-Sim's output size
//   ceil((H - R + stride) / stride) (conv2d's rounding='ceil'; a program's
//   conv2d rounds down unless it asks). The input is NHWC so the result
//   needs no format conversion (only the convolution is timed).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dsl/support/source_location.h"
#include "sim/arch/program.h"

namespace dsl {

// The sizes of `--shape M,K,N` with --op, or why they are refused: the
// caller words the message for its own option.
struct OpSizes {
    enum class Error { None, NotNumbers, NotPositive };
    Error error = Error::None;
    std::vector<int64_t> dims;
};

// Numbers of 1 to 12 digits separated by commas, as --shape's dimensions
// (parse_shape_option); the first bad number decides the error.
OpSizes parse_op_sizes(const std::string& text);

// The program text; throws std::invalid_argument with the reason (e.g.
// "--op conv2d needs --shape H,W,C,R,S,F,stride (7 numbers), got 3").
std::shared_ptr<const SourceFile> single_op_source(const std::string& op, const std::vector<int64_t>& dims,
                                                   arch::DType dtype);

}  // namespace dsl
