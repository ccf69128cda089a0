#include "sim/cli/driver/functional_check.h"

#include <cmath>
#include <cstdio>

namespace cli {

namespace {

std::vector<int64_t> unravel(uint64_t flat, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size());
    for (size_t k = shape.size(); k-- > 0;) {
        idx[k] = int64_t(flat % uint64_t(shape[k]));
        flat /= uint64_t(shape[k]);
    }
    return idx;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace

// The same count of roundings for each 2-byte type: float16
// 1e-2 (2^-11 = 4.9e-4 per rounding), bfloat16 eight times that, 8e-2
// (2^-8 = 3.9e-3 per rounding), float32 1e-4 (docs/functional.md §4).
// Integers computed from integers (or quantised straight from inputs) are
// exact: tolerance 0.
double check_tolerance(arch::DType t) {
    switch (t) {
    case arch::DType::Int8:
    case arch::DType::Int32: return 0;
    case arch::DType::Float16: return 1e-2;
    case arch::DType::BFloat16: return 8e-2;
    case arch::DType::Float32: break;
    }
    return 1e-4;
}

std::string index_text(const std::vector<int64_t>& idx) {
    std::string t = "(";
    for (size_t i = 0; i < idx.size(); ++i) t += (i ? ", " : "") + std::to_string(idx[i]);
    return t + ")";
}

OutputCheck compare_output(const std::string& name, const std::vector<int64_t>& shape, arch::DType precision,
                           const std::vector<float>& sim, const std::vector<double>& ref,
                           const std::vector<double>& extra) {
    OutputCheck c;
    c.name = name, c.shape = shape, c.precision = precision;
    for (double r : ref)
        if (std::isfinite(r)) c.scale = std::max(c.scale, std::fabs(r));
    const double rtol = check_tolerance(precision);
    double worst_ratio = -1;
    uint64_t abs_i = 0, rel_i = 0, worst_i = 0;
    for (uint64_t i = 0; i < ref.size() && i < sim.size(); ++i) {
        const double s = sim[i], r = ref[i];
        const double tol = rtol * (std::fabs(r) + c.scale) + (i < extra.size() ? extra[i] : 0.0);
        double err, ratio;
        if ((std::isnan(s) && std::isnan(r)) || (std::isinf(s) && s == r)) {
            err = 0, ratio = 0;
        } else if (!std::isfinite(s) || !std::isfinite(r)) {
            err = INFINITY, ratio = INFINITY;
        } else {
            err = std::fabs(s - r);
            ratio = tol > 0 ? err / tol : (err > 0 ? INFINITY : 0);
        }
        if (err > c.max_abs) c.max_abs = err, abs_i = i;
        if (std::fabs(r) >= c.scale / 1024 && std::fabs(r) > 0) {
            const double rel = err / std::fabs(r);
            if (rel > c.max_rel) c.max_rel = rel, rel_i = i;
        }
        if (ratio > worst_ratio) {
            worst_ratio = ratio, worst_i = i;
            c.worst_sim = s, c.worst_ref = r, c.worst_tolerance = tol;
        }
        if (ratio > 1) c.pass = false;
    }
    if (sim.size() != ref.size()) c.pass = false;
    c.abs_at = unravel(abs_i, shape);
    c.rel_at = unravel(rel_i, shape);
    c.worst_at = unravel(worst_i, shape);
    return c;
}

std::string check_figures(const OutputCheck& c) {
    return c.name + " " + index_text(c.shape) + " (" + arch::dtype_name(c.precision) + " tolerance " +
           num(check_tolerance(c.precision)) + " x (|ref| + " + num(c.scale) + ")): max abs error " + num(c.max_abs) +
           " at " + index_text(c.abs_at) + ", max rel error " + num(c.max_rel) + " at " + index_text(c.rel_at) +
           "; worst " + index_text(c.worst_at) + ": " + num(c.worst_sim) + " vs " + num(c.worst_ref);
}

}  // namespace cli
