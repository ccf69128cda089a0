// embedding: y[i, :] = table[ids[i], :] over the ids in row-major order. An
// id outside [0, rows) is an error (PyTorch's nn.Embedding raises one too).
#include <string>

#include "dsl/reference/kernels.h"

namespace dsl {

void ref_embedding(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& table = *in[0];
    const RefValues& ids = *in[1];
    const std::vector<int64_t>& shape = g.tensors[size_t(op.inputs[0])].shape;
    const int64_t rows = shape[0], D = shape[1];
    for (size_t i = 0; i < ids.size(); ++i) {
        const double id = ids[i];
        if (!(id >= 0.0 && id < double(rows)))
            throw ReferenceError("embedding: id " + std::to_string(int64_t(id)) + " at position " + std::to_string(i) +
                                 " of " + g.tensors[size_t(op.inputs[1])].name + " is outside the table's " +
                                 std::to_string(rows) + " rows");
        const size_t r = size_t(id);
        for (int64_t d = 0; d < D; ++d) y[i * size_t(D) + size_t(d)] = table[r * size_t(D) + size_t(d)];
    }
}

}  // namespace dsl
