// embedding(table, ids): the rows of a (V, D) table chosen by int32 ids of
// any shape, y[..., :] = table[ids[...], :], the shape ids.shape + (D,) in
// the table's dtype, any (an int8 table gives int8 rows: a weight-only
// quantised embedding dequantises after the lookup). A token id outside
// [0, V) is an error of the functional simulation and of the reference
// (PyTorch's nn.Embedding raises), not of the rule: ids are data.
#include "dsl/ops/op_rules.h"
#include "dsl/ops/ops_operands.h"

namespace dsl {

Value rule_embedding(PypoLibrary& lib, const CallSite& call) {
    OpCall c(lib, call, Signature("embedding", {"table", "ids", "layout"}, 2, {}, 2));
    Operand table = c.tensor("table", "table");
    Operand ids = c.tensor("ids", "ids");
    if (table.rank() != 2) c.fail_at(table.loc, "table must have 2 axes (rows, dim): " + table.text());
    if (ids.dtype != arch::DType::Int32) c.fail_at(ids.loc, "ids must be an int32 tensor: " + ids.text());
    std::vector<int64_t> shape = ids.shape;
    shape.push_back(table.shape[1]);
    return c.record({table.tensor, ids.tensor}, std::move(shape), table.dtype, {});
}

}  // namespace dsl
