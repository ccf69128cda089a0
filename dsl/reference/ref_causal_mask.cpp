// causal_mask: y = x, except -inf at column j of row i where j > i + offset,
// over the last two axes (Sq, Sk) of every leading index.
#include "dsl/reference/kernels.h"

#include <algorithm>
#include <limits>

namespace dsl {

void ref_causal_mask(const TaskGraph& g, const OpNode& op, const RefInputs& in, RefValues& y) {
    const RefValues& x = *in[0];
    const std::vector<int64_t>& shape = g.tensors[size_t(op.inputs[0])].shape;
    const int64_t sk = shape.back(), sq = shape[shape.size() - 2];
    const int64_t offset = std::clamp<int64_t>(op.attrs.at("offset").i, -sq - 1, sk);  // no overflow below
    for (int64_t r = 0; r * sk < int64_t(x.size()); ++r)
        for (int64_t j = 0; j < sk; ++j)
            y[size_t(r * sk + j)] =
                j > r % sq + offset ? -std::numeric_limits<double>::infinity() : x[size_t(r * sk + j)];
}

}  // namespace dsl
