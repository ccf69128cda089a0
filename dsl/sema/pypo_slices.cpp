// Slices of tensors and in-place updates: the graph nodes of `t[...]` and
// `t[...] = v`, and the versions an update makes (dsl/sema/pypo_library.h).
#include "dsl/sema/pypo_library.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

std::string at(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

bool names_bytes_of_input(OpKind k) {
    return k == OpKind::Slice || k == OpKind::Reshape || k == OpKind::Flatten || k == OpKind::Slide;
}

}  // namespace

int PypoLibrary::version_of(int tensor) const {
    for (;;) {
        const int p = graph_.tensors[size_t(tensor)].producer;
        if (p < 0 || !names_bytes_of_input(graph_.ops[size_t(p)].kind)) return tensor;
        tensor = graph_.ops[size_t(p)].inputs[0];
    }
}

int PypoLibrary::root_of(int version) const {
    auto it = root_of_version_.find(version);
    return it == root_of_version_.end() ? version : it->second;
}

int PypoLibrary::current_version(int tensor) const {
    if (version_of(tensor) != tensor) return tensor;
    auto it = updated_.find(root_of(tensor));
    return it == updated_.end() ? tensor : it->second.latest;
}

void PypoLibrary::check_current(int tensor, const SourceLoc& loc) const {
    const int version = version_of(tensor);
    const int root = root_of(version);
    auto it = updated_.find(root);
    if (it == updated_.end() || it->second.latest == version) return;
    const std::string& name = graph_.tensors[size_t(root)].name;
    const std::string& held = graph_.tensors[size_t(tensor)].name;
    fail(loc, "'" + held + "' holds values of '" + name + "' from before its in-place update at " + at(it->second.loc) +
                  ", which overwrote them: " + (held == name ? "read" : "index") + " '" + name +
                  "' again after the update");
}

int PypoLibrary::add_slice(int tensor, const SliceSpec& s, const SourceLoc& loc) {
    check_current(tensor, loc);
    const TensorNode& t = graph_.tensors[size_t(tensor)];
    return add_op(OpKind::Slice, {tensor}, sliced_shape(s), t.dtype, slice_attrs(s), loc);
}

int PypoLibrary::add_update(int tensor, int value, const SliceSpec& s, const SourceLoc& loc) {
    check_current(tensor, loc);
    check_current(value, loc);
    // An output names its bytes at the end of the run: a view of what this
    // update changes would show the new values, not the ones it was given.
    for (const TensorNode& o : graph_.tensors)
        if (o.role == TensorRole::Output && version_of(int(&o - graph_.tensors.data())) == tensor)
            fail(loc, "output '" + o.name + "' is a view of '" + graph_.tensors[size_t(tensor)].name +
                          "', which this update changes: declare the output after the update");
    const TensorNode& t = graph_.tensors[size_t(tensor)];
    const std::vector<int64_t> shape = t.shape;
    const arch::DType dtype = t.dtype;
    const int root = root_of(tensor);
    const int out = add_op(OpKind::Update, {tensor, value}, shape, dtype, slice_attrs(s), loc);
    // The new version keeps the tensor's layout annotation: its bytes are the tensor's.
    graph_.tensors[size_t(out)].layout = graph_.tensors[size_t(tensor)].layout;
    root_of_version_[out] = root;
    updated_[root] = {out, loc};
    return out;
}

void PypoLibrary::declare_updated_inputs() {
    for (const auto& [root, u] : updated_) {
        const TensorNode& r = graph_.tensors[size_t(root)];
        if (r.role != TensorRole::Input || graph_.tensors[size_t(u.latest)].role == TensorRole::Output) continue;
        declare_output("pypo.output", r.name + ".updated", u.loc, u.latest, u.loc);
    }
}

}  // namespace dsl
