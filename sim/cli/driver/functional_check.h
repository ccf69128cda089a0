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

// Element i passes when |sim - ref| <= rtol * (|ref| + scale), or both are
// the same infinity or both NaN.
OutputCheck compare_output(const std::string& name, const std::vector<int64_t>& shape, arch::DType precision,
                           const std::vector<float>& sim, const std::vector<double>& ref);

// "  c (256, 256) float16: max abs error 1.2e-03 at (4, 7), max rel error ..., pass"
std::string format_check(const OutputCheck& c);
// "(4, 7)"
std::string index_text(const std::vector<int64_t>& idx);

}  // namespace cli
