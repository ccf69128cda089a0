#include "dsl/reference/indexing.h"

namespace dsl {

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

int64_t broadcast_offset(const std::vector<int64_t>& idx, const std::vector<int64_t>& out,
                         const std::vector<int64_t>& in) {
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

Around around(const std::vector<int64_t>& shape, size_t first, size_t last) {
    Around a;
    for (size_t k = 0; k < shape.size(); ++k) (k < first ? a.outer : k <= last ? a.mid : a.inner) *= shape[k];
    return a;
}

}  // namespace dsl
