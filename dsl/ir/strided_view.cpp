#include "dsl/ir/strided_view.h"

#include <stdexcept>

namespace dsl {

SliceSpec slice_spec(const OpNode& op) {
    if (op.kind != OpKind::Slice && op.kind != OpKind::Update)
        throw std::logic_error("slice_spec of an operation that is not a slice");
    SliceSpec s;
    s.begin = op.attrs.at("begin").ints;
    s.count = op.attrs.at("count").ints;
    s.step = op.attrs.at("step").ints;
    s.dropped = op.attrs.at("dropped").ints;
    return s;
}

std::map<std::string, Attr> slice_attrs(const SliceSpec& s) {
    return {{"begin", Attr::list(s.begin)},
            {"count", Attr::list(s.count)},
            {"step", Attr::list(s.step)},
            {"dropped", Attr::list(s.dropped)}};
}

std::vector<int64_t> sliced_shape(const SliceSpec& s) {
    std::vector<int64_t> shape;
    for (size_t k = 0; k < s.count.size(); ++k)
        if (!s.dropped[k]) shape.push_back(s.count[k]);
    return shape;
}

bool whole_tensor(const SliceSpec& s, const std::vector<int64_t>& shape) {
    for (size_t k = 0; k < shape.size(); ++k)
        if (s.dropped[k] || s.begin[k] != 0 || s.count[k] != shape[k] || s.step[k] != 1) return false;
    return true;
}

std::string slice_text(const SliceSpec& s, const std::vector<int64_t>& shape) {
    std::string out = "[";
    for (size_t k = 0; k < s.count.size(); ++k) {
        out += k ? ", " : "";
        if (s.dropped[k]) {
            out += std::to_string(s.begin[k]);
            continue;
        }
        if (s.begin[k] == 0 && s.count[k] == shape[k] && s.step[k] == 1) {
            out += ":";
            continue;
        }
        out += std::to_string(s.begin[k]) + ":" + std::to_string(s.begin[k] + (s.count[k] - 1) * s.step[k] + 1);
        if (s.step[k] != 1) out += ":" + std::to_string(s.step[k]);
    }
    return out + "]";
}

bool StridedLayout::contiguous() const {
    int64_t expected = 1;
    for (size_t k = shape.size(); k-- > 0;) {
        if (shape[k] != 1 && strides[k] != expected) return false;
        expected *= shape[k];
    }
    return true;
}

int64_t StridedLayout::element(int64_t k) const {
    int64_t at = offset;
    for (size_t d = shape.size(); d-- > 0;) {
        at += (k % shape[d]) * strides[d];
        k /= shape[d];
    }
    return at;
}

StridedLayout row_major_layout(const std::vector<int64_t>& shape) {
    StridedLayout l;
    l.shape = shape;
    l.strides.assign(shape.size(), 1);
    for (size_t k = shape.size(); k-- > 1;) l.strides[k - 1] = l.strides[k] * shape[k];
    return l;
}

StridedLayout slice_layout(const StridedLayout& source, const SliceSpec& s) {
    StridedLayout l;
    l.offset = source.offset;
    for (size_t k = 0; k < s.count.size(); ++k) {
        l.offset += s.begin[k] * source.strides[k];
        if (s.dropped[k]) continue;
        l.shape.push_back(s.count[k]);
        l.strides.push_back(s.step[k] * source.strides[k]);
    }
    return l;
}

StridedLayout collapsed(const StridedLayout& l) {
    StridedLayout c;
    c.offset = l.offset;
    for (size_t k = 0; k < l.shape.size(); ++k) {
        if (l.shape[k] == 1) continue;
        if (!c.shape.empty() && c.strides.back() == l.strides[k] * l.shape[k]) {
            c.shape.back() *= l.shape[k];
            c.strides.back() = l.strides[k];
            continue;
        }
        c.shape.push_back(l.shape[k]);
        c.strides.push_back(l.strides[k]);
    }
    return c;
}

}  // namespace dsl
