// t[...] and t[...] = v (dsl/ir/strided_view.h): the view gathers its
// elements, the update writes v's into a copy of t (the graph is SSA: the
// update's result is t's next version).
#include "dsl/ir/strided_view.h"
#include "dsl/reference/kernels.h"

namespace dsl {

void ref_slice(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const StridedLayout l = slice_layout(row_major_layout(g.tensors[size_t(op.inputs[0])].shape), slice_spec(op));
    for (size_t k = 0; k < y.size(); ++k) y[k] = (*in[0])[size_t(l.element(int64_t(k)))];
}

void ref_update(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const StridedLayout l = slice_layout(row_major_layout(g.tensors[size_t(op.inputs[0])].shape), slice_spec(op));
    y = *in[0];
    for (size_t k = 0; k < in[1]->size(); ++k) y[size_t(l.element(int64_t(k)))] = (*in[1])[k];
}

}  // namespace dsl
