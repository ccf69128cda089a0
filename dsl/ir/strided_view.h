// Slices of tensors as the task graph records them: `t[a:b:s, i, ...]`
// (a slice view, OpKind::Slice) and `t[a:b, ...] = v` (an in-place update,
// OpKind::Update) carry, per axis of the tensor they index, the first
// index, the count and the step, and whether an integer index drops the
// axis. A view's elements are then an offset and strides over the bytes of
// the tensor it was taken from: the lowering reads them there (no copy),
// the reference executor gathers them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"

namespace dsl {

struct SliceSpec {
    std::vector<int64_t> begin, count, step;  // per axis of the sliced tensor
    std::vector<int64_t> dropped;             // 1 where an integer index removes the axis
};

// The spec an OpKind::Slice or OpKind::Update node holds in its attributes.
SliceSpec slice_spec(const OpNode& op);
std::map<std::string, Attr> slice_attrs(const SliceSpec& s);
// The shape of the slice: the counts of the axes it keeps.
std::vector<int64_t> sliced_shape(const SliceSpec& s);
// Whether `s` picks every element of a tensor of `shape` in order (t[:]).
bool whole_tensor(const SliceSpec& s, const std::vector<int64_t>& shape);
// "[:, 5:6, 0]" for messages and block names.
std::string slice_text(const SliceSpec& s, const std::vector<int64_t>& shape);

// Elements as an offset and per-axis strides, in elements of a storage.
struct StridedLayout {
    int64_t offset = 0;
    std::vector<int64_t> shape, strides;
    // Its elements in row-major order are one run of the storage.
    bool contiguous() const;
    // The storage element of row-major element `k` of the view.
    int64_t element(int64_t k) const;
};
StridedLayout row_major_layout(const std::vector<int64_t>& shape);
// The slice `s` of the elements `source` describes.
StridedLayout slice_layout(const StridedLayout& source, const SliceSpec& s);
// The same elements over fewer axes: axes of size 1 dropped and neighbours
// that step evenly merged ((32, 128) strides (T*128, T) is (4096,) stride T).
StridedLayout collapsed(const StridedLayout& l);

}  // namespace dsl
