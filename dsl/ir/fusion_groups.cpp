#include "dsl/ir/fusion_groups.h"

namespace dsl {

bool heads_row_group(const OpNode& op) { return !op.epilogue.empty() && is_reduce_kind(op.kind); }

bool fused_result_stored(const TaskGraph& g, const std::vector<std::vector<int>>& readers, int op) {
    const OpNode& o = g.ops[size_t(op)];
    const int head = !o.epilogue.empty() ? op : o.fused_into;
    if (head < 0) return true;
    const OpNode& h = g.ops[size_t(head)];
    if (!heads_row_group(h)) return h.epilogue.back() == op;
    if (g.tensors[size_t(o.output)].role != TensorRole::Intermediate) return true;
    for (int r : readers[size_t(o.output)])
        if (r != head && g.ops[size_t(r)].fused_into != head) return true;
    return false;
}

}  // namespace dsl
