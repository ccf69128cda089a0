// How element-wise reference kernels apply their function: to each element
// (unary), or to each pair of NumPy-broadcast elements, one of which may be
// the operation's number operand (attrs "scalar", "scalar_first").
#pragma once

#include "dsl/reference/indexing.h"
#include "dsl/reference/kernels.h"

namespace dsl {

template <class F>
void ref_each(const RefInputs& in, RefValues& y, F f) {
    for (size_t i = 0; i < y.size(); ++i) y[i] = f((*in[0])[i]);
}

template <class F>
void ref_broadcast(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y, F f) {
    const std::vector<int64_t>& ys = g.tensors[size_t(op.output)].shape;
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
            y[size_t(i)] = scalar_first ? f(s, a) : f(a, s);
        } else {
            const double b = (*in[1])[size_t(broadcast_offset(idx, ys, shapes[1]))];
            y[size_t(i)] = f(a, b);
        }
    }
}

}  // namespace dsl
