// --check: comparing each program output the compiled program computed
// with the reference executor's (dsl/reference/reference.h), within a per-dtype
// tolerance (docs/functional.md §5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/program.h"

namespace cli {

// The relative tolerance of a value computed at precision `t`: float16
// 1e-2 (about ten float16 roundings), float32 1e-4.
double check_tolerance(arch::DType t);

struct OutputCheck {
    std::string name;
    std::vector<int64_t> shape;
    arch::DType precision = arch::DType::Float16;  // the least precise dtype the output passed through
    double scale = 0;                              // max |reference|, the error's yardstick
    double max_abs = 0, max_rel = 0;               // over all elements (rel: where |reference| >= scale / 1024)
    std::vector<int64_t> abs_at, rel_at;
    // The element closest to (or furthest past) its tolerance.
    std::vector<int64_t> worst_at;
    double worst_sim = 0, worst_ref = 0, worst_tolerance = 0;
    bool pass = true;
};

// Element i passes when |sim - ref| <= rtol * (|ref| + scale) + extra[i]
// (extra empty: 0), or both are the same infinity or both NaN. `extra` is
// an operation's own allowance beyond its result's rounding: for a sum of
// terms, the rounding its accumulation may add (op_check.h).
OutputCheck compare_output(const std::string& name, const std::vector<int64_t>& shape, arch::DType precision,
                           const std::vector<float>& sim, const std::vector<double>& ref,
                           const std::vector<double>& extra = {});

// "c (256, 256) (float16 tolerance ...): max abs error 1.2e-03 at (4, 7),
// max rel error ...; worst ...": the figures of a check, without a verdict.
std::string check_figures(const OutputCheck& c);
// "(4, 7)"
std::string index_text(const std::vector<int64_t>& idx);

}  // namespace cli
