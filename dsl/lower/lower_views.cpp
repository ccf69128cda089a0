#include "dsl/lower/lower_views.h"

#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

bool is_view_kind(OpKind k) { return k == OpKind::Reshape || k == OpKind::Flatten || k == OpKind::Slide; }

}  // namespace

int view_source(const TaskGraph& g, int tensor) {
    int source = -1;
    for (int t = tensor;;) {
        int producer = g.tensors[size_t(t)].producer;
        if (producer < 0 || !is_view_kind(g.ops[size_t(producer)].kind)) return source;
        source = t = g.ops[size_t(producer)].inputs[0];
    }
}

std::optional<SlideView> slide_view(const TaskGraph& g, int tensor) {
    int producer = g.tensors[size_t(tensor)].producer;
    if (producer < 0 || g.ops[size_t(producer)].kind != OpKind::Slide) return std::nullopt;
    const OpNode& op = g.ops[size_t(producer)];
    SlideView v;
    v.image = view_source(g, tensor);
    v.window = op.attrs.at("window").ints;
    v.stride = op.attrs.at("stride").ints;
    return v;
}

void check_slide_views(const TaskGraph& g) {
    const std::string readers =
        ": a slide view is read only by reduce_sum, reduce_mean or reduce_max over its window axes";
    for (const OpNode& op : g.ops) {
        const bool reduces =
            op.kind == OpKind::ReduceSum || op.kind == OpKind::ReduceMean || op.kind == OpKind::ReduceMax;
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
