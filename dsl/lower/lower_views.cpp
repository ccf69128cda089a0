#include "dsl/lower/lower_views.h"

#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

// The version of a tensor a read sees: through views, to an update's
// result or a tensor of its own.
int version_read(const TaskGraph& g, int tensor) {
    for (;;) {
        const int p = g.tensors[size_t(tensor)].producer;
        if (p < 0 || !is_view_kind(g.ops[size_t(p)].kind) || g.ops[size_t(p)].kind == OpKind::Update) return tensor;
        tensor = g.ops[size_t(p)].inputs[0];
    }
}

}  // namespace

int view_source(const TaskGraph& g, int tensor) {
    int source = -1;
    for (int t = tensor;;) {
        int producer = g.tensors[size_t(t)].producer;
        if (producer < 0 || !is_view_kind(g.ops[size_t(producer)].kind)) return source;
        source = t = g.ops[size_t(producer)].inputs[0];
    }
}

DdrView ddr_view(const TaskGraph& g, int tensor) {
    const TensorNode& t = g.tensors[size_t(tensor)];
    const int p = t.producer;
    if (p < 0 || !is_view_kind(g.ops[size_t(p)].kind)) return {tensor, row_major_layout(t.shape), false};
    const OpNode& op = g.ops[size_t(p)];
    DdrView v = ddr_view(g, op.inputs[0]);
    switch (op.kind) {
    case OpKind::Slice: v.layout = slice_layout(v.layout, slice_spec(op)); break;
    case OpKind::Update: break;
    default: {
        // reshape, flatten, slide: the same run of bytes under a new shape.
        v.strided_reshape = v.strided_reshape || !v.layout.contiguous();
        const int64_t offset = v.layout.offset;
        v.layout = row_major_layout(t.shape);
        v.layout.offset = offset;
    }
    }
    return v;
}

void check_slice_views(const TaskGraph& g) {
    auto strided = [&](int tensor) {
        const int p = g.tensors[size_t(tensor)].producer;
        return p >= 0 && g.ops[size_t(p)].kind != OpKind::Update && !ddr_view(g, tensor).one_run() &&
               version_read(g, tensor) != tensor;
    };
    const std::string readers = ": a slice that is not one run of its tensor's bytes is read only by matmul";
    for (const OpNode& op : g.ops)
        for (size_t k = 0; k < op.inputs.size(); ++k) {
            const int in = op.inputs[k];
            if (!strided(in) || op.kind == OpKind::Matmul) continue;
            if (op.kind == OpKind::Slice && !ddr_view(g, in).strided_reshape) continue;  // a slice of a slice
            throw CompileError(op.loc, std::string(op_kind_name(op.kind)) + " of '" + g.tensors[size_t(in)].name +
                                           "', a strided slice, is not lowered yet" + readers);
        }
    for (const TensorNode& t : g.tensors)
        if (t.role == TensorRole::Output && t.producer >= 0 && strided(int(&t - g.tensors.data())))
            throw CompileError(t.loc, "output '" + t.name + "' is a strided slice, which is not lowered yet" + readers);
}

std::vector<int> update_readers(const TaskGraph& g, int op) {
    const int old = g.ops[size_t(op)].inputs[0];
    std::vector<int> readers;
    for (int i = 0; i < op; ++i) {
        bool reads = false;
        for (int in : g.ops[size_t(i)].inputs) reads = reads || version_read(g, in) == old;
        if (reads) readers.push_back(i);
    }
    return readers;
}

std::optional<SlideView> slide_view(const TaskGraph& g, int tensor) {
    int producer = g.tensors[size_t(tensor)].producer;
    if (producer < 0 || g.ops[size_t(producer)].kind != OpKind::Slide) return std::nullopt;
    const OpNode& op = g.ops[size_t(producer)];
    SlideView v;
    // The image as placed: through reshapes to a tensor with an address of
    // its own or a slice of one (a slice has its own address too).
    v.image = op.inputs[0];
    for (int q = g.tensors[size_t(v.image)].producer;
         q >= 0 && (g.ops[size_t(q)].kind == OpKind::Reshape || g.ops[size_t(q)].kind == OpKind::Flatten);
         q = g.tensors[size_t(v.image)].producer)
        v.image = g.ops[size_t(q)].inputs[0];
    v.window = op.attrs.at("window").ints;
    v.stride = op.attrs.at("stride").ints;
    return v;
}

void check_slide_views(const TaskGraph& g) {
    const std::string readers =
        ": a slide view is read only by reduce_sum, reduce_mean or reduce_max over its window axes";
    for (const OpNode& op : g.ops) {
        const bool reduces = is_reduce_kind(op.kind);
        for (int in : op.inputs)
            if (!reduces && slide_view(g, in))
                throw CompileError(
                    op.loc, std::string(op_kind_name(op.kind)) + " of a slide view is not lowered yet" + readers);
    }
    for (const TensorNode& t : g.tensors)
        if (t.role == TensorRole::Output && t.producer >= 0 && g.ops[size_t(t.producer)].kind == OpKind::Slide)
            throw CompileError(t.loc, "output '" + t.name + "' is a slide view, which is not lowered yet" + readers);
}

}  // namespace dsl
