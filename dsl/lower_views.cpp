#include "dsl/lower_views.h"

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

}  // namespace dsl
