#include "dsl/ir/vector_unit_tensors.h"

namespace dsl {

std::vector<int> tensors_vector_units_touch(const TaskGraph& g) {
    std::vector<bool> seen(g.tensors.size(), false);
    std::vector<int> touched;
    for (const OpNode& op : g.ops) {
        if (op_kind_unit_of(op.kind) != OpUnit::Vector) continue;
        std::vector<int> tensors = op.inputs;
        tensors.push_back(op.output);
        for (int t : tensors)
            for (;;) {
                if (!seen[size_t(t)]) seen[size_t(t)] = true, touched.push_back(t);
                const int p = g.tensors[size_t(t)].producer;
                if (p < 0 || !is_view_kind(g.ops[size_t(p)].kind)) break;
                t = g.ops[size_t(p)].inputs[0];
            }
    }
    return touched;
}

}  // namespace dsl
