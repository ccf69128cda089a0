#include "dsl/passes/pass_layout.h"

#include <utility>

#include "dsl/passes/pass_rewrite.h"

namespace dsl {

namespace {

// NCHW (N, C, H, W) -> NHWC (N, H, W, C).
std::vector<int64_t> nhwc_shape(const std::vector<int64_t>& nchw) { return {nchw[0], nchw[2], nchw[3], nchw[1]}; }

class LayoutPass {
public:
    explicit LayoutPass(const TaskGraph& g) : g_(g), rw_(g), renamed_(g.tensors.size(), -1) {}

    TaskGraph run() {
        return rw_.rewrite_each([this](const OpNode& op) { rewrite(op); });
    }

private:
    void rewrite(OpNode op) {
        // Readers of a converted tensor read the conversion's output.
        for (int& in : op.inputs)
            if (renamed_[size_t(in)] >= 0) in = renamed_[size_t(in)];
        if (op.kind != OpKind::Conv2d) {
            rw_.emit(std::move(op));
            return;
        }
        // The conv2d read its input in the layout its output is labelled
        // with (its own layout=, else its input's; docs/language.md §3.9).
        const std::string& label = rw_.tensor(op.output).layout;
        const std::string& in = rw_.tensor(op.inputs[0]).layout;
        op.attrs["input_layout"] =
            Attr::choice(label == "NHWC" || (label != "NCHW" && in == "NHWC") ? ImageLayout::NHWC : ImageLayout::NCHW);
        if (label == "NHWC") {
            rw_.emit(std::move(op));
            return;
        }
        const int declared = op.output;
        TensorNode nhwc = rw_.tensor(declared);
        nhwc.shape = nhwc_shape(nhwc.shape);
        nhwc.layout = "NHWC";
        nhwc.role = TensorRole::Intermediate;
        int converted = declared;
        if (rw_.tensor(declared).role == TensorRole::Output) {
            // The program output keeps its name and layout: the conv2d
            // writes a new intermediate.
            nhwc.name = rw_.fresh_name("conv2d");
            op.output = rw_.add_tensor(nhwc);
        } else {
            TensorNode nchw = rw_.tensor(declared);
            nchw.name = rw_.fresh_name("format_convert");
            converted = rw_.add_tensor(nchw);
            rw_.tensor(declared) = nhwc;
            rw_.tensor(declared).name = g_.tensors[size_t(declared)].name;
            renamed_[size_t(declared)] = converted;
        }
        OpNode convert;
        convert.kind = OpKind::FormatConvert;
        convert.inputs = {op.output};
        convert.output = converted;
        convert.attrs["from"] = Attr::choice(ImageLayout::NHWC);
        convert.attrs["to"] = Attr::choice(ImageLayout::NCHW);
        convert.precision = op.precision;
        convert.task = op.task;
        convert.loc = op.loc;
        rw_.emit(std::move(op));
        rw_.emit(std::move(convert));
    }

    const TaskGraph& g_;
    GraphRewriter rw_;
    std::vector<int> renamed_;  // per original tensor: the tensor its readers now read, -1 = itself
};

}  // namespace

TaskGraph apply_layout(const TaskGraph& g) { return LayoutPass(g).run(); }

}  // namespace dsl
