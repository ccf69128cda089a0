// Reference kernels of matmul, the reductions and normalisations along an
// axis, and the data rearrangements (transpose, concat).
#include <algorithm>
#include <cmath>
#include <limits>

#include "dsl/reference/indexing.h"
#include "dsl/reference/kernels.h"

namespace dsl {

void ref_matmul(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& A = *in[0];
    const RefValues& B = *in[1];
    const auto& as = g.tensors[size_t(op.inputs[0])].shape;
    const auto& bs = g.tensors[size_t(op.inputs[1])].shape;
    const auto& ys = g.tensors[size_t(op.output)].shape;
    const int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
    const std::vector<int64_t> ab(as.begin(), as.end() - 2), bb(bs.begin(), bs.end() - 2), yb(ys.begin(), ys.end() - 2);
    std::vector<int64_t> idx;
    std::vector<double> row(static_cast<size_t>(N));
    for (int64_t item = 0; item < count(yb); ++item) {
        unravel(item, yb, idx);
        const double* a = A.data() + broadcast_offset(idx, yb, ab) * M * K;
        const double* b = B.data() + broadcast_offset(idx, yb, bb) * K * N;
        double* c = y.data() + item * M * N;
        for (int64_t i = 0; i < M; ++i) {
            std::fill(row.begin(), row.end(), 0.0);
            for (int64_t p = 0; p < K; ++p) {
                const double av = a[i * K + p];
                const double* br = b + p * N;
                for (int64_t j = 0; j < N; ++j) row[size_t(j)] += av * br[j];
            }
            std::copy(row.begin(), row.end(), c + i * N);
        }
    }
}

void ref_reduce(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const auto& xs = g.tensors[size_t(op.inputs[0])].shape;
    const auto& axes = op.attrs.at("axis").ints;
    std::vector<bool> reduced(xs.size(), false);
    for (int64_t a : axes) reduced[size_t(a)] = true;
    const bool max = op.kind == OpKind::ReduceMax;
    std::fill(y.begin(), y.end(), max ? -std::numeric_limits<double>::infinity() : 0.0);
    std::vector<int64_t> idx;
    int64_t n = 1;
    for (size_t k = 0; k < xs.size(); ++k)
        if (reduced[k]) n *= xs[k];
    for (int64_t i = 0; i < int64_t(x.size()); ++i) {
        unravel(i, xs, idx);
        int64_t o = 0;
        for (size_t k = 0; k < xs.size(); ++k)
            if (!reduced[k]) o = o * xs[k] + idx[k];
        double& t = y[size_t(o)];
        t = max ? nan_maximum(t, x[size_t(i)]) : t + x[size_t(i)];
    }
    if (op.kind == OpKind::ReduceMean)
        for (double& v : y) v /= double(n);
}

// The first largest along the axis; the first NaN if there is one (NumPy).
void ref_argmax(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const Around a =
        around(g.tensors[size_t(op.inputs[0])].shape, size_t(op.attrs.at("axis").i), size_t(op.attrs.at("axis").i));
    for (int64_t o = 0; o < a.outer; ++o)
        for (int64_t i = 0; i < a.inner; ++i) {
            auto at = [&](int64_t m) { return size_t((o * a.mid + m) * a.inner + i); };
            int64_t best = 0;
            for (int64_t m = 0; m < a.mid; ++m) {
                if (std::isnan(x[at(m)])) {
                    best = m;
                    break;
                }
                if (x[at(m)] > x[at(best)]) best = m;
            }
            y[size_t(o * a.inner + i)] = double(best);
        }
}

void ref_softmax(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const auto& xs = g.tensors[size_t(op.inputs[0])].shape;
    const size_t axis = size_t(op.attrs.at("axis").i);
    const Around a = around(xs, axis, axis);
    for (int64_t o = 0; o < a.outer; ++o)
        for (int64_t i = 0; i < a.inner; ++i) {
            auto at = [&](int64_t m) { return size_t((o * a.mid + m) * a.inner + i); };
            double mx = -std::numeric_limits<double>::infinity(), sum = 0;
            for (int64_t m = 0; m < a.mid; ++m) mx = std::max(mx, x[at(m)]);
            for (int64_t m = 0; m < a.mid; ++m) sum += y[at(m)] = std::exp(x[at(m)] - mx);
            for (int64_t m = 0; m < a.mid; ++m) y[at(m)] /= sum;
        }
}

void ref_layer_norm(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const RefValues& scale = *in[1];
    const RefValues& shift = *in[2];
    const auto& xs = g.tensors[size_t(op.inputs[0])].shape;
    const Around a = around(xs, size_t(op.attrs.at("axis").i), xs.size() - 1);
    const double eps = op.attrs.at("eps").f;
    for (int64_t o = 0; o < a.outer; ++o) {
        const double* r = x.data() + o * a.mid;
        double mean = 0, var = 0;
        for (int64_t m = 0; m < a.mid; ++m) mean += r[m];
        mean /= double(a.mid);
        for (int64_t m = 0; m < a.mid; ++m) var += (r[m] - mean) * (r[m] - mean);
        var /= double(a.mid);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (int64_t m = 0; m < a.mid; ++m)
            y[size_t(o * a.mid + m)] = (r[m] - mean) * inv * scale[size_t(m)] + shift[size_t(m)];
    }
}

void ref_transpose(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const auto& xs = g.tensors[size_t(op.inputs[0])].shape;
    const auto& ys = g.tensors[size_t(op.output)].shape;
    const auto& perm = op.attrs.at("perm").ints;
    const std::vector<int64_t> xstr = strides_of(xs);
    std::vector<int64_t> idx;
    for (int64_t i = 0; i < int64_t(y.size()); ++i) {
        unravel(i, ys, idx);
        int64_t src = 0;
        for (size_t k = 0; k < ys.size(); ++k) src += idx[k] * xstr[size_t(perm[k])];
        y[size_t(i)] = x[size_t(src)];
    }
}

void ref_concat(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const auto& ys = g.tensors[size_t(op.output)].shape;
    const size_t axis = size_t(op.attrs.at("axis").i);
    const Around a = around(ys, axis, ys.size() - 1);  // outer rows of mid (= the axis and after)
    int64_t offset = 0;
    for (size_t t = 0; t < op.inputs.size(); ++t) {
        const int64_t run = count(g.tensors[size_t(op.inputs[t])].shape) / a.outer;
        for (int64_t o = 0; o < a.outer; ++o)
            std::copy(in[t]->begin() + o * run, in[t]->begin() + (o + 1) * run, y.begin() + o * a.mid + offset);
        offset += run;
    }
}

}  // namespace dsl
