// Element-wise operations, reductions, normalisations along an axis,
// matmul and the data rearrangements; image operations are in
// dsl/reference/reference_image.cpp.
#include "dsl/reference/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dsl {

namespace {

int64_t count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::vector<int64_t> strides_of(const std::vector<int64_t>& shape) {
    std::vector<int64_t> s(shape.size(), 1);
    for (size_t k = shape.size(); k-- > 1;) s[k - 1] = s[k] * shape[k];
    return s;
}

// The offset in an operand of shape `in` (NumPy-broadcast to `out`) of the
// output element at multi-index `idx`.
int64_t broadcast_offset(const std::vector<int64_t>& idx, const std::vector<int64_t>& out, const std::vector<int64_t>& in) {
    int64_t off = 0, stride = 1;
    for (size_t k = 0; k < in.size(); ++k) {
        const size_t i = in.size() - 1 - k, o = out.size() - 1 - k;
        if (in[i] != 1) off += idx[o] * stride;
        stride *= in[i];
    }
    return off;
}

void unravel(int64_t flat, const std::vector<int64_t>& shape, std::vector<int64_t>& idx) {
    idx.resize(shape.size());
    for (size_t k = shape.size(); k-- > 0;) {
        idx[k] = flat % shape[k];
        flat /= shape[k];
    }
}

double unary(OpKind k, double a) {
    switch (k) {
    case OpKind::Relu: return a < 0 ? 0.0 : a;
    case OpKind::Gelu: return 0.5 * a * (1.0 + std::erf(a / std::sqrt(2.0)));
    case OpKind::Sigmoid: return 1.0 / (1.0 + std::exp(-a));
    case OpKind::Tanh: return std::tanh(a);
    case OpKind::Exp: return std::exp(a);
    case OpKind::Sqrt: return std::sqrt(a);
    default: return a;  // cast
    }
}

double binary(OpKind k, double a, double b) {
    switch (k) {
    case OpKind::Add: return a + b;
    case OpKind::Sub: return a - b;
    case OpKind::Mul: return a * b;
    case OpKind::Div: return a / b;
    default: return (std::isnan(a) || a > b) ? a : b;  // maximum, NaN-propagating
    }
}

// (outer, mid, inner) around axis range [first, last].
struct Around {
    int64_t outer = 1, mid = 1, inner = 1;
};
Around around(const std::vector<int64_t>& shape, size_t first, size_t last) {
    Around a;
    for (size_t k = 0; k < shape.size(); ++k) (k < first ? a.outer : k <= last ? a.mid : a.inner) *= shape[k];
    return a;
}

void matmul(const TaskGraph& g, const OpNode& op, const RefValues& A, const RefValues& B, RefValues& y) {
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

void reduce(const TaskGraph& g, const OpNode& op, const RefValues& x, RefValues& y) {
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
        t = max ? binary(OpKind::Maximum, t, x[size_t(i)]) : t + x[size_t(i)];
    }
    if (op.kind == OpKind::ReduceMean)
        for (double& v : y) v /= double(n);
}

void softmax(const TaskGraph& g, const OpNode& op, const RefValues& x, RefValues& y) {
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

void layer_norm(const TaskGraph& g, const OpNode& op, const RefValues& x, const RefValues& scale, const RefValues& shift,
                RefValues& y) {
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

void transpose(const TaskGraph& g, const OpNode& op, const RefValues& x, RefValues& y) {
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

void concat(const TaskGraph& g, const OpNode& op, const std::vector<const RefValues*>& in, RefValues& y) {
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

}  // namespace

std::vector<RefValues> run_reference(const TaskGraph& g, const std::vector<RefValues>& inputs) {
    std::vector<RefValues> v(g.tensors.size());
    for (size_t t = 0; t < g.tensors.size() && t < inputs.size(); ++t) v[t] = inputs[t];
    for (const OpNode& op : g.ops) {
        std::vector<const RefValues*> in;
        for (int t : op.inputs) {
            if (v[size_t(t)].size() != size_t(count(g.tensors[size_t(t)].shape)))
                throw ReferenceError("reference: '" + g.tensors[size_t(t)].name + "' has no values (read by " +
                                     op_kind_name(op.kind) + ")");
            in.push_back(&v[size_t(t)]);
        }
        const TensorNode& out = g.tensors[size_t(op.output)];
        RefValues y(size_t(count(out.shape)), 0.0);
        const std::vector<int64_t>& ys = out.shape;
        switch (op.kind) {
        case OpKind::Matmul: matmul(g, op, *in[0], *in[1], y); break;
        case OpKind::Relu: case OpKind::Gelu: case OpKind::Sigmoid: case OpKind::Tanh: case OpKind::Exp:
        case OpKind::Sqrt: case OpKind::Cast:
            for (size_t i = 0; i < y.size(); ++i) y[i] = unary(op.kind, (*in[0])[i]);
            break;
        case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::Maximum: {
            std::vector<std::vector<int64_t>> shapes;
            for (int t : op.inputs) shapes.push_back(g.tensors[size_t(t)].shape);
            const bool scalar = op.attrs.count("scalar") > 0;
            const bool scalar_first = scalar && op.attrs.count("scalar_first") && op.attrs.at("scalar_first").b;
            const double s = scalar ? op.attrs.at("scalar").f : 0.0;
            std::vector<int64_t> idx;
            for (int64_t i = 0; i < int64_t(y.size()); ++i) {
                unravel(i, ys, idx);
                const double a = (*in[0])[size_t(broadcast_offset(idx, ys, shapes[0]))];
                if (scalar) {
                    y[size_t(i)] = scalar_first ? binary(op.kind, s, a) : binary(op.kind, a, s);
                } else {
                    const double b = (*in[1])[size_t(broadcast_offset(idx, ys, shapes[1]))];
                    y[size_t(i)] = binary(op.kind, a, b);
                }
            }
            break;
        }
        case OpKind::LayerNorm: layer_norm(g, op, *in[0], *in[1], *in[2], y); break;
        case OpKind::Softmax: softmax(g, op, *in[0], y); break;
        case OpKind::ReduceSum: case OpKind::ReduceMean: case OpKind::ReduceMax: reduce(g, op, *in[0], y); break;
        case OpKind::Transpose: transpose(g, op, *in[0], y); break;
        case OpKind::Reshape: case OpKind::Flatten: case OpKind::Move: y = *in[0]; break;
        case OpKind::Concat: concat(g, op, in, y); break;
        default:
            if (!is_reference_image_op(op.kind))
                throw ReferenceError(std::string("not supported in --check yet: ") + op_kind_name(op.kind));
            reference_image_op(g, op, in, y);
        }
        v[size_t(op.output)] = std::move(y);
    }
    return v;
}

}  // namespace dsl
