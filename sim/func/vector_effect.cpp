// The vector unit: each command reads its sources as float (through their
// arch::VectorSource views), computes in float and rounds every result to
// the command's dtype, which for float16 is IEEE float16 arithmetic (a
// single +, -, *, / or sqrt rounded from float32 to float16 is correctly
// rounded). Reductions combine pairwise, rounding each partial sum, as the
// unit's combining tree does (docs/timing-model.md §8).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "sim/func/effects.h"
#include "sim/func/numerics.h"

namespace func {

namespace {

using arch::DType;
using arch::VectorOp;
using arch::VectorSource;

// The memory a vector unit computes in: its own Unified Buffer, or the
// cluster's L1 (sim/arch/program.h).
struct VectorMemory {
    Memory& memory;
    int unit;
    uint8_t* span(uint64_t addr, uint64_t bytes, const char* what) const {
        return memory.span(memory.vector_space(), unit, addr, bytes, what);
    }
};

// The rows x cols elements source `s` names at `addr`, as float.
void gather(const VectorMemory& m, uint64_t addr, const VectorSource& s, DType t, uint64_t rows, uint64_t cols,
            std::vector<float>& out, const char* what) {
    const uint64_t n = rows * cols, e = uint64_t(arch::dtype_bytes(t));
    out.resize(n);
    switch (s.kind) {
    case VectorSource::Kind::Contiguous: load_run(m.span(addr, n * e, what), t, n, out.data()); return;
    case VectorSource::Kind::Scalar: {
        // An immediate in the command's precision.
        float v = float(s.scalar);
        round_run(t, 1, &v);
        std::fill(out.begin(), out.end(), v);
        return;
    }
    case VectorSource::Kind::Strided: {
        const size_t rank = s.dims.size();
        if (s.strides.size() != rank)
            throw FunctionalError(std::string(what) + ": view dims and strides differ in length");
        if (n == 0) return;
        // The lowest and highest element the view reaches, for the bounds check.
        int64_t lo = 0, hi = 0;
        uint64_t space = 1;
        for (size_t k = 0; k < rank; ++k) {
            space *= s.dims[k];
            if (s.dims[k] == 0) throw FunctionalError(std::string(what) + ": view with an empty axis");
            const int64_t reach = int64_t(s.dims[k] - 1) * s.strides[k];
            (reach < 0 ? lo : hi) += reach;
        }
        if (s.first + n > space)
            throw FunctionalError(std::string(what) + ": view of " + std::to_string(space) + " elements read from " +
                                  std::to_string(s.first) + " for " + std::to_string(n));
        if (lo < 0 && uint64_t(-lo) * e > addr)
            throw FunctionalError(std::string(what) + ": view starts below its memory");
        const uint8_t* base = m.span(addr + uint64_t(lo) * e, uint64_t(hi - lo + 1) * e, what) - lo * int64_t(e);
        // An odometer over dims, starting at element `first`.
        std::vector<uint64_t> idx(rank, 0);
        int64_t off = 0;
        for (uint64_t rest = s.first, k = rank; k-- > 0;) {
            idx[k] = rest % s.dims[k];
            rest /= s.dims[k];
            off += int64_t(idx[k]) * s.strides[k];
        }
        const int64_t inner_stride = rank ? s.strides[rank - 1] : 0;
        const uint64_t inner = rank ? s.dims[rank - 1] : 1;
        for (uint64_t i = 0; i < n;) {
            // A run along the innermost axis, then carry.
            const uint64_t run = std::min<uint64_t>(inner - (rank ? idx[rank - 1] : 0), n - i);
            for (uint64_t j = 0; j < run; ++j)
                out[i + j] = load_one(base + (off + int64_t(j) * inner_stride) * int64_t(e), t);
            i += run;
            if (!rank) continue;
            off += int64_t(run) * inner_stride;
            idx[rank - 1] += run;
            for (size_t k = rank - 1; k > 0 && idx[k] == s.dims[k]; --k) {
                off -= int64_t(idx[k]) * s.strides[k];
                idx[k] = 0;
                ++idx[k - 1];
                off += s.strides[k - 1];
            }
        }
        return;
    }
    case VectorSource::Kind::Window: {
        const VectorSource::Window& w = s.window;
        if (w.out_h == 0 || w.depth == 0 || rows % w.out_h)
            throw FunctionalError(std::string(what) + ": window of " + std::to_string(w.out_h) + " output rows over " +
                                  std::to_string(rows) + " rows");
        const uint64_t planes = rows / w.out_h, row = uint64_t(w.width) * w.depth, plane = w.height * row;
        if (w.origin < 0 && uint64_t(-w.origin) * e > addr)
            throw FunctionalError(std::string(what) + ": window starts below its memory");
        const uint8_t* slab = m.span(addr + uint64_t(w.origin * int64_t(e)), planes * plane * e, what);
        const float fill = float(w.fill);
        for (uint64_t r = 0; r < rows; ++r) {
            const uint64_t p = r / w.out_h, oy = r % w.out_h;
            const int64_t iy = int64_t(oy * w.stride_h + w.ki) - int64_t(w.pad_h);
            float* o = out.data() + r * cols;
            for (uint64_t c = 0; c < cols; ++c) {
                const uint64_t ox = c / w.depth, d = c % w.depth;
                const int64_t ix = int64_t(ox * w.stride_w + w.kj) - int64_t(w.pad_w);
                o[c] = iy < 0 || ix < 0 || iy >= int64_t(w.height) || ix >= int64_t(w.width)
                           ? fill
                           : load_one(slab + (p * plane + uint64_t(iy) * row + uint64_t(ix) * w.depth + d) * e, t);
            }
        }
        return;
    }
    }
}

// NaN-propagating, as NumPy's maximum and minimum.
inline float maximum(float a, float b) { return (a != a || a > b) ? a : b; }
inline float minimum(float a, float b) { return (a != a || a < b) ? a : b; }

float unary(VectorOp op, float a) {
    switch (op) {
    case VectorOp::Relu: return a < 0.0f ? 0.0f : a;
    case VectorOp::Gelu: return 0.5f * a * (1.0f + std::erf(a * 0.70710678118654752f));
    case VectorOp::Sigmoid: return 1.0f / (1.0f + std::exp(-a));
    case VectorOp::Tanh: return std::tanh(a);
    case VectorOp::Exp: return std::exp(a);
    case VectorOp::Sqrt: return std::sqrt(a);
    default: return a;  // Copy, Cast
    }
}

float binary(VectorOp op, float a, float b) {
    switch (op) {
    case VectorOp::Add: return a + b;
    case VectorOp::Sub: return a - b;
    case VectorOp::Mul: return a * b;
    case VectorOp::Div: return a / b;
    case VectorOp::Minimum: return minimum(a, b);
    default: return maximum(a, b);
    }
}

// Pairwise: (x0 + x1) + (x2 + x3) ..., each partial result rounded to `t`.
float reduce_row(VectorOp op, DType t, float* v, uint64_t n) {
    if (n == 0) return op == VectorOp::ReduceMax ? -std::numeric_limits<float>::infinity() : 0.0f;
    while (n > 1) {
        const uint64_t half = n / 2;
        for (uint64_t i = 0; i < half; ++i)
            v[i] = op == VectorOp::ReduceMax ? maximum(v[2 * i], v[2 * i + 1]) : v[2 * i] + v[2 * i + 1];
        round_run(t, half, v);
        if (n % 2) v[half] = v[n - 1];
        n = half + n % 2;
    }
    return v[0];
}

// The index of the first largest of n values; the first NaN if there is one
// (NumPy's argmax: NaN compares as the largest).
int32_t argmax_row(const float* v, uint64_t n) {
    uint64_t best = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (std::isnan(v[i])) return int32_t(i);
        if (v[i] > v[best]) best = i;
    }
    return int32_t(best);
}

}  // namespace

void apply_vector(Memory& memory, int unit, const arch::VectorArgs& v) {
    const VectorMemory m{memory, unit};
    const uint64_t rows = v.rows, cols = v.cols, n = rows * cols;
    const DType t = v.dtype;
    const DType out_t = v.dst_dtype();
    thread_local std::vector<float> a, b, z, y;
    gather(m, v.src0, v.source(0), t, rows, cols, a, "VECTOR source 0");
    const int sources = arch::vector_op_sources(v.op);
    if (sources >= 2) gather(m, v.src1, v.source(1), t, rows, cols, b, "VECTOR source 1");
    if (sources == 3) gather(m, v.src2, v.source(2), t, rows, cols, z, "VECTOR source 2");
    if (v.op == VectorOp::Argmax) {
        // Indices are written as integers, not through the float path (exact
        // at any row length).
        uint8_t* out = m.span(v.dst, rows * 4, "VECTOR destination");
        for (uint64_t r = 0; r < rows; ++r) {
            const int32_t index = argmax_row(a.data() + r * cols, cols);
            std::memcpy(out + r * 4, &index, 4);
        }
        return;
    }
    uint64_t out_n = n;
    switch (v.op) {
    case VectorOp::Copy:
    case VectorOp::Cast: y.assign(a.begin(), a.end()); break;
    case VectorOp::Add:
    case VectorOp::Sub:
    case VectorOp::Mul:
    case VectorOp::Div:
    case VectorOp::Maximum:
    case VectorOp::Minimum:
        y.resize(n);
        for (uint64_t i = 0; i < n; ++i) y[i] = binary(v.op, a[i], b[i]);
        break;
    case VectorOp::Select:
        // A float condition as NumPy's where reads it: true unless zero
        // (either sign); NaN is true.
        y.resize(n);
        for (uint64_t i = 0; i < n; ++i) y[i] = z[i] != 0.0f ? a[i] : b[i];
        break;
    case VectorOp::ReduceSum:
    case VectorOp::ReduceMax:
        y.resize(rows);
        for (uint64_t r = 0; r < rows; ++r) y[r] = reduce_row(v.op, t, a.data() + r * cols, cols);
        out_n = rows;
        break;
    case VectorOp::Transpose:
        y.resize(n);
        for (uint64_t r = 0; r < rows; ++r)
            for (uint64_t c = 0; c < cols; ++c) y[c * rows + r] = a[r * cols + c];
        break;
    default:
        y.resize(n);
        for (uint64_t i = 0; i < n; ++i) y[i] = unary(v.op, a[i]);
        break;
    }
    // store_run rounds to the destination's dtype: the op's precision (a
    // cast's target).
    const uint64_t e = uint64_t(arch::dtype_bytes(out_t));
    store_run(m.span(v.dst, out_n * e, "VECTOR destination"), out_t, out_n, y.data());
}

}  // namespace func
