// The reference executor's loop: every operation in program order, through
// its kernel (dsl/reference/kernels.h).
#include "dsl/reference/reference.h"

#include <string>

#include "dsl/reference/indexing.h"
#include "dsl/reference/kernels.h"

namespace dsl {

namespace {

const RefKernel kKernels[] = {
#define OP(e, name, unit, access, precision, on_chip, rule, lowering, reference, vector, fusion) reference,
#include "dsl/ir/op_table.def"
#undef OP
};

}  // namespace

// reshape, flatten and a copy into a buffer keep the values.
void ref_identity(const TaskGraph&, const OpNode&, const RefInputs& in, RefValues& y) { y = *in[0]; }

void ref_unsupported(const TaskGraph&, const OpNode& op, const RefInputs&, RefValues&) {
    throw ReferenceError(std::string("not supported in --check yet: ") + op_kind_name(op.kind));
}

RefValues run_reference_op(const TaskGraph& g, const OpNode& op, const std::vector<const RefValues*>& inputs) {
    RefValues y(size_t(count(g.tensors[size_t(op.output)].shape)), 0.0);
    kKernels[size_t(op.kind)](g, op, inputs, y);
    return y;
}

std::vector<RefValues> run_reference(const TaskGraph& g, const std::vector<RefValues>& inputs) {
    std::vector<RefValues> v(g.tensors.size());
    for (size_t t = 0; t < g.tensors.size() && t < inputs.size(); ++t) v[t] = inputs[t];
    for (const OpNode& op : g.ops) {
        RefInputs in;
        for (int t : op.inputs) {
            if (v[size_t(t)].size() != size_t(count(g.tensors[size_t(t)].shape)))
                throw ReferenceError("reference: '" + g.tensors[size_t(t)].name + "' has no values (read by " +
                                     op_kind_name(op.kind) + ")");
            in.push_back(&v[size_t(t)]);
        }
        v[size_t(op.output)] = run_reference_op(g, op, in);
    }
    return v;
}

}  // namespace dsl
