// The padding of 2-D windows, Conv's and pooling's: ONNX pads each side of
// an axis separately (or by auto_pad), the language both sides alike.
#include <algorithm>

#include "dsl/import/onnx_names.h"
#include "dsl/import/onnx_ops.h"

namespace dsl::onnx_ops {

namespace {

// The padding of one spatial axis: ONNX pads each side separately, the
// language alike on both.
int64_t symmetric_pad(OnnxTranslator& t, const onnx::NodeProto& n, const std::vector<int64_t>& pads, size_t axis) {
    const int64_t before = pads[axis], after = pads[axis + 2];
    if (before != after)
        t.fail(n, "pads " + OnnxTranslator::tuple(pads) +
                      " differ between the two sides of an axis; the language pads both sides alike");
    if (before < 0) t.fail(n, "pads must not be negative, got " + OnnxTranslator::tuple(pads));
    return before;
}

}  // namespace

// pads of a 2-D window from `auto_pad` (NOTSET, VALID, SAME_UPPER, SAME_LOWER) and `pads`.
std::vector<int64_t> window_pads(OnnxTranslator& t, const onnx::NodeProto& n, const OnnxValue& x,
                                 const std::vector<int64_t>& kernel, const std::vector<int64_t>& strides,
                                 const std::vector<int64_t>& dilations) {
    const std::string auto_pad = t.attr_string(n, "auto_pad", "NOTSET");
    if (auto_pad == "NOTSET") {
        const std::vector<int64_t> pads = t.attr_sizes(n, "pads", {0, 0, 0, 0});
        if (pads.size() != 4) t.fail(n, "pads must have 4 values for a 2-D window, got " + std::to_string(pads.size()));
        return {symmetric_pad(t, n, pads, 0), symmetric_pad(t, n, pads, 1)};
    }
    if (auto_pad == "VALID") return {0, 0};
    if (auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER")
        t.fail(n, "auto_pad '" + comment_text(auto_pad) + "' is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
    std::vector<int64_t> pads;
    for (size_t a = 0; a < 2; ++a) {
        const int64_t in = x.dims[2 + a];
        if (in < 0) t.fail(n, "auto_pad " + auto_pad + " needs the input's size, which the model leaves open");
        const int64_t out = (in + strides[a] - 1) / strides[a];
        const int64_t total = std::max<int64_t>((out - 1) * strides[a] + (kernel[a] - 1) * dilations[a] + 1 - in, 0);
        if (total % 2)
            t.fail(n, "auto_pad " + auto_pad + " pads " + std::to_string(total) +
                          " in all along an axis, unequally on its two sides; the language pads both sides alike");
        pads.push_back(total / 2);
    }
    return pads;
}

}  // namespace dsl::onnx_ops
