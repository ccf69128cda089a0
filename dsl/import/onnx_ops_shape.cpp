// The operators that only name, view or move data (Identity, Reshape,
// Flatten, Squeeze, Unsqueeze, Transpose, Slice, Concat, Gather, Cast) and
// the shape arithmetic of exported graphs (Shape, Constant, and Gather,
// Concat, Unsqueeze, Squeeze, Slice, Cast on shapes), folded at import into
// the Python integers a Reshape's target is written with.
#include <climits>
#include <cmath>

#include "dsl/import/onnx_names.h"
#include "dsl/import/onnx_ops.h"

namespace dsl::onnx_ops {

namespace {

using Kind = OnnxValue::Kind;
using TP = onnx::TensorProto;

bool is_shape_like(const OnnxValue& v) {
    return v.kind == Kind::Shape || (v.kind == Kind::Const && v.c().is_integer() && v.c().dims.size() <= 1);
}

OnnxValue shape_value(std::vector<std::string> exprs, bool scalar) {
    OnnxValue v;
    v.kind = Kind::Shape;
    v.exprs = std::move(exprs);
    v.scalar = scalar;
    return v;
}

bool is_scalar(const OnnxValue& v) { return v.kind == Kind::Shape ? v.scalar : v.c().dims.empty(); }

bool known(const std::string& e, int64_t& v) { return OnnxTranslator::known_int(e, v); }

// The product of dims texts, folded where they are numbers.
std::string product(const std::vector<std::string>& items) {
    int64_t p = 1;
    std::string rest;
    for (const std::string& e : items) {
        int64_t v, q;
        // Folded while it fits; Python's integers take the rest.
        if (known(e, v) && !__builtin_mul_overflow(p, v, &q)) p = q;
        else rest += (rest.empty() ? "" : " * ") + e;
    }
    if (rest.empty()) return std::to_string(p);
    return p == 1 ? rest : std::to_string(p) + " * " + rest;
}

// Emits a reshape of tensor input 0 into `target` (each a dims text; -1 allowed).
void emit_reshape(OnnxTranslator& t, const onnx::NodeProto& n, const OnnxValue& x,
                  const std::vector<std::string>& target) {
    if (target.empty()) t.fail(n, "the result would be a scalar, which the language does not have");
    std::vector<int64_t> dims;
    int64_t product_known = 1, infer = -1;
    bool all_known = true;
    for (size_t i = 0; i < target.size(); ++i) {
        int64_t v;
        if (!known(target[i], v)) v = -2;  // an expression, known when the program runs
        if (v == -1) infer = int64_t(i);
        else if (v >= 0) all_known &= !__builtin_mul_overflow(product_known, std::max<int64_t>(v, 1), &product_known);
        else all_known = false;
        dims.push_back(v >= 0 ? v : -1);
    }
    int64_t count = 1;
    for (int64_t d : x.dims)
        if (d < 0 || count < 0 || __builtin_mul_overflow(count, d, &count)) count = -1;
    if (infer >= 0 && all_known && count >= 0 && product_known > 0 && count % product_known == 0)
        dims[size_t(infer)] = count / product_known;
    t.emit(n, "pypo.op.reshape(" + x.var + ", " + OnnxTranslator::tuple(target) + ")", dims, x.dtype);
}

std::vector<std::string> dims_texts(const OnnxValue& x) {
    std::vector<std::string> d;
    for (size_t i = 0; i < x.dims.size(); ++i) d.push_back(OnnxTranslator::dim_text(x, i));
    return d;
}

// Squeeze's and Unsqueeze's axes: an attribute before opset 13, an input from it.
std::vector<int64_t> axes_of(OnnxTranslator& t, const onnx::NodeProto& n) {
    // `axes` is an attribute up to opset 12 and an input from opset 13.
    if (t.opset() >= 13 && t.has_attr(n, "axes"))
        t.fail(n, "attribute axes is " + n.op_type() + "'s up to opset 12; at opset " + std::to_string(t.opset()) +
                      " the axes are input 1");
    t.only_attrs(n, {"axes"});
    if (t.opset() >= 13) return t.has_input(n, 1) ? t.known_ints(n, 1, "axes") : std::vector<int64_t>{};
    return t.attr_ints(n, "axes", {});
}

}  // namespace

void identity(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {});
    t.set_value(n, t.input(n, 0));
}

void constant(OnnxTranslator& t, const onnx::NodeProto& n) {
    if (n.attribute_size() != 1) t.fail(n, "must have exactly one attribute, the value");
    OnnxValue v;
    v.kind = Kind::Const;
    v.name = n.output(0);
    ConstTensor c;
    const std::string& which = n.attribute(0).name();
    if (which == "value") {
        std::string why;
        if (!decode_tensor(*t.attr_tensor(n, "value"), c, why)) t.fail(n, "its value: " + why);
    } else if (which == "value_float") {
        c.elem_type = TP::FLOAT, c.values = {t.attr_float(n, "value_float", 0)};
    } else if (which == "value_int") {
        c.elem_type = TP::INT64, c.values = {double(t.attr_int(n, "value_int", 0))};
    } else if (which == "value_ints") {
        c.elem_type = TP::INT64;
        for (int64_t x : t.attr_ints(n, "value_ints", {})) c.values.push_back(double(x));
        c.dims = {int64_t(c.values.size())};
    } else if (which == "value_floats") {
        c.elem_type = TP::FLOAT;
        const onnx::AttributeProto& a = n.attribute(0);
        if (a.type() != onnx::AttributeProto::FLOATS) t.fail(n, "attribute 'value_floats' must be FLOATS");
        c.values.assign(a.floats().begin(), a.floats().end());
        c.dims = {int64_t(c.values.size())};
    } else t.fail(n, "attribute '" + comment_text(which) + "' is not supported by the importer");
    v.set_const(std::move(c));
    t.set_value(n, v);
}

void shape(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"start", "end"});
    const OnnxValue& x = t.input(n, 0);
    std::vector<std::string> all;
    if (x.kind == Kind::Tensor) all = dims_texts(x);
    else if (x.kind == Kind::Const)
        for (int64_t d : x.c().dims) all.push_back(std::to_string(d));
    else if (!x.scalar) all = {std::to_string(x.exprs.size())};
    const int64_t r = int64_t(all.size());
    int64_t start = t.attr_int(n, "start", 0), end = t.attr_int(n, "end", r);
    start = std::clamp<int64_t>(start < 0 ? start + r : start, 0, r);
    end = std::clamp<int64_t>(end < 0 ? end + r : end, 0, r);
    t.set_value(n, shape_value({all.begin() + start, all.begin() + std::max(start, end)}, false));
}

void gather(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"axis"});
    const OnnxValue& data = t.input(n, 0);
    const OnnxValue& idx = t.input(n, 1);
    if (idx.kind == Kind::Const && idx.c().dims.size() > 1)
        t.fail(n, "constant indices of rank " + std::to_string(idx.c().dims.size()) +
                      " are not mapped (a scalar or a list of indices is: a view or a shape's elements)");
    if (is_shape_like(data) && idx.kind != Kind::Tensor) {
        // An element (or elements) of a shape: picked at import.
        const std::vector<std::string> e = t.int_exprs(n, 0, "data");
        std::vector<std::string> picked;
        for (int64_t i : t.known_ints(n, 1, "indices")) {
            if (i < -int64_t(e.size()) || i >= int64_t(e.size()))
                t.fail(n,
                       "index " + std::to_string(i) + " is out of range of " + std::to_string(e.size()) + " elements");
            picked.push_back(e[size_t(i < 0 ? i + int64_t(e.size()) : i)]);
        }
        return t.set_value(n, shape_value(picked, is_scalar(idx)));
    }
    if (idx.kind == Kind::Tensor) {
        // Token ids into a table: the language's embedding (a gather of rows).
        const OnnxValue& table = t.tensor_input(n, 0);
        if (t.attr_int(n, "axis", 0) != 0 || table.dims.size() != 2)
            t.fail(n, "a gather by a tensor of indices is mapped for rows of a 2-D table (axis 0) only");
        const OnnxValue& ids = t.input(n, 1);
        std::vector<int64_t> dims = ids.dims;
        dims.push_back(table.dims[1]);
        return void(t.emit(n, "pypo.op.embedding(" + table.var + ", " + ids.var + ")", dims, table.dtype));
    }
    // Constant indices into a tensor: a view, x[:, i] (scalar) or x[:, a:b] (a run).
    const OnnxValue& x = t.tensor_input(n, 0);
    const int64_t axis = t.axis(n, t.attr_int(n, "axis", 0), x.dims.size(), "axis");
    const std::vector<int64_t> ids = t.known_ints(n, 1, "indices");
    const bool scalar = t.input(n, 1).kind == Kind::Const ? t.input(n, 1).c().dims.empty() : t.input(n, 1).scalar;
    if (ids.empty()) t.fail(n, "no indices");
    const int64_t size = x.dims[size_t(axis)];
    std::vector<int64_t> norm;
    for (int64_t i : ids) {
        if (i < 0 && size < 0) t.fail(n, "a negative index needs the axis' size, which the model leaves open");
        const int64_t k = i < 0 ? i + size : i;
        if (k < 0 || k >= (size < 0 ? kMaxDim : size))
            t.fail(n, "index " + std::to_string(i) + " is out of range of axis " + std::to_string(axis) + " (size " +
                          OnnxTranslator::dim_text(x, size_t(axis)) + ")");
        norm.push_back(k);
    }
    for (size_t k = 1; k < norm.size(); ++k)
        if (norm[k] != norm[0] + int64_t(k))
            t.fail(n, "indices " + OnnxTranslator::tuple(ids) +
                          " are not a run of consecutive indices; only those are a view in the language");
    if (scalar && x.dims.size() == 1) t.fail(n, "the result would be a scalar, which the language does not have");
    std::string index;
    for (int64_t a = 0; a < axis; ++a) index += ":, ";
    index += scalar ? std::to_string(norm[0]) : std::to_string(norm[0]) + ":" + std::to_string(norm.back() + 1);
    std::vector<int64_t> dims;
    for (size_t a = 0; a < x.dims.size(); ++a)
        if (int64_t(a) != axis) dims.push_back(x.dims[a]);
        else if (!scalar) dims.push_back(int64_t(norm.size()));
    t.emit(n, x.var + "[" + index + "]", dims, x.dtype);
}

void concat(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"axis"});
    if (n.input_size() < 1) t.fail(n, "no inputs");
    bool shapes = true;
    for (int i = 0; i < n.input_size(); ++i) shapes &= is_shape_like(t.input(n, i));
    if (shapes) {
        std::vector<std::string> all;
        for (int i = 0; i < n.input_size(); ++i)
            for (const std::string& e : t.int_exprs(n, i, "operand")) all.push_back(e);
        return t.set_value(n, shape_value(all, false));
    }
    const OnnxValue& first = t.tensor_input(n, 0);
    const int64_t axis = t.axis(n, t.attr_int(n, "axis", 0), first.dims.size(), "axis");
    std::vector<std::string> vars;
    std::vector<int64_t> dims = first.dims;
    for (int i = 0; i < n.input_size(); ++i) {
        const OnnxValue& v = t.tensor_input(n, i);
        vars.push_back(v.var);
        if (i && v.dims.size() == dims.size())
            dims[size_t(axis)] =
                dims[size_t(axis)] < 0 || v.dims[size_t(axis)] < 0 ? -1 : dims[size_t(axis)] + v.dims[size_t(axis)];
    }
    std::string list = "[";
    for (size_t i = 0; i < vars.size(); ++i) list += (i ? ", " : "") + vars[i];
    t.emit(n, "pypo.op.concat(" + list + "], axis=" + std::to_string(axis) + ")", dims, t.input(n, 0).dtype);
}

void unsqueeze(OnnxTranslator& t, const onnx::NodeProto& n) {
    const OnnxValue& data = t.input(n, 0);
    const std::vector<int64_t> axes = axes_of(t, n);
    if (is_shape_like(data)) {
        // A scalar of shape arithmetic made a one-element list, ready for a Concat.
        if (!is_scalar(data) || axes.size() != 1 || (axes[0] != 0 && axes[0] != -1))
            t.fail(n, "an Unsqueeze of a shape is folded only from a scalar to one element");
        return t.set_value(n, shape_value(t.int_exprs(n, 0, "data"), false));
    }
    const OnnxValue& x = t.tensor_input(n, 0);
    const size_t rank = x.dims.size() + axes.size();
    std::vector<bool> inserted(rank, false);
    for (int64_t a : axes) {
        const int64_t k = t.axis(n, a, rank, "axis");
        if (inserted[size_t(k)]) t.fail(n, "an axis is given twice");
        inserted[size_t(k)] = true;
    }
    std::vector<std::string> target;
    for (size_t i = 0, j = 0; i < rank; ++i) target.push_back(inserted[i] ? "1" : OnnxTranslator::dim_text(x, j++));
    emit_reshape(t, n, x, target);
}

void squeeze(OnnxTranslator& t, const onnx::NodeProto& n) {
    const OnnxValue& data = t.input(n, 0);
    if (is_shape_like(data) && !is_scalar(data)) {
        const std::vector<std::string> e = t.int_exprs(n, 0, "data");
        if (e.size() != 1) t.fail(n, "a Squeeze of a shape is folded only from one element to a scalar");
        return t.set_value(n, shape_value(e, true));
    }
    const OnnxValue& x = t.tensor_input(n, 0);
    std::vector<int64_t> axes = axes_of(t, n);
    std::vector<bool> dropped(x.dims.size(), false);
    if (axes.empty()) {
        for (size_t a = 0; a < x.dims.size(); ++a) {
            if (x.dims[a] < 0) t.fail(n, "without axes, every size must be known to find the 1s");
            dropped[a] = x.dims[a] == 1;
        }
    }
    for (int64_t a : axes) {
        const int64_t k = t.axis(n, a, x.dims.size(), "axis");
        if (x.dims[size_t(k)] > 1)
            t.fail(n, "axis " + std::to_string(a) + " has size " + std::to_string(x.dims[size_t(k)]) + ", not 1");
        dropped[size_t(k)] = true;
    }
    std::vector<std::string> target;
    for (size_t i = 0; i < x.dims.size(); ++i)
        if (!dropped[i]) target.push_back(OnnxTranslator::dim_text(x, i));
    emit_reshape(t, n, x, target);
}

void reshape(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"allowzero"});
    const bool allowzero = t.attr_int(n, "allowzero", 0) != 0;
    std::vector<std::string> target = t.int_exprs(n, 1, "the target shape");
    const OnnxValue& x = t.tensor_input(n, 0);
    int inferred = 0;
    for (size_t i = 0; i < target.size(); ++i) {
        int64_t v;
        if (!known(target[i], v)) continue;
        // 0 copies the input's size at that axis (unless allowzero): the
        // language has no empty tensors either way.
        if (v == 0) {
            if (allowzero)
                t.fail(n, "allowzero with a 0 in the shape makes an empty tensor, which the language does not have");
            if (i >= x.dims.size()) t.fail(n, "a 0 at axis " + std::to_string(i) + " has no input axis to copy");
            target[i] = OnnxTranslator::dim_text(x, i);
        } else if (v == -1 && ++inferred > 1) t.fail(n, "the target shape has more than one -1");
        else if (v < -1 || v > kMaxDim) t.fail(n, "the target shape holds " + std::to_string(v));
    }
    emit_reshape(t, n, x, target);
}

void flatten(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"axis"});
    const OnnxValue& x = t.tensor_input(n, 0);
    const int64_t r = int64_t(x.dims.size());
    int64_t axis = t.attr_int(n, "axis", 1);
    if (axis < -r || axis > r)
        t.fail(n, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
    if (axis < 0) axis += r;
    // The language's flatten(x) is ONNX's Flatten at axis 1.
    if (axis == 1) {
        int64_t inner = 1;
        for (size_t a = 1; a < x.dims.size(); ++a)
            if (x.dims[a] < 0 || inner < 0 || __builtin_mul_overflow(inner, x.dims[a], &inner)) inner = -1;
        return void(t.emit(n, "pypo.op.flatten(" + x.var + ")", {x.dims[0], x.dims.size() > 1 ? inner : 1}, x.dtype));
    }
    const std::vector<std::string> all = dims_texts(x);
    emit_reshape(t, n, x, {product({all.begin(), all.begin() + axis}), axis == r ? "1" : "-1"});
}

void transpose(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"perm"});
    const OnnxValue& x = t.tensor_input(n, 0);
    std::vector<int64_t> def;
    for (size_t a = x.dims.size(); a-- > 0;) def.push_back(int64_t(a));
    const std::vector<int64_t> perm = t.attr_ints(n, "perm", def);
    if (perm.size() != x.dims.size())
        t.fail(n, "perm " + OnnxTranslator::tuple(perm) + " does not list every axis once");
    std::vector<int64_t> dims;
    std::vector<bool> seen(perm.size(), false);
    for (int64_t p : perm) {
        const int64_t a = t.axis(n, p, x.dims.size(), "perm axis");
        if (seen[size_t(a)]) t.fail(n, "perm " + OnnxTranslator::tuple(perm) + " does not list every axis once");
        seen[size_t(a)] = true;
        dims.push_back(x.dims[size_t(a)]);
    }
    t.emit(n, "pypo.op.transpose(" + x.var + ", " + OnnxTranslator::tuple(perm) + ")", dims, x.dtype);
}

void slice(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"axes", "ends", "starts"});
    std::vector<int64_t> starts, ends, axes, steps;
    if (t.opset() < 10) {
        starts = t.attr_ints(n, "starts", {}), ends = t.attr_ints(n, "ends", {}), axes = t.attr_ints(n, "axes", {});
    } else {
        starts = t.known_ints(n, 1, "starts"), ends = t.known_ints(n, 2, "ends");
        if (t.has_input(n, 3)) axes = t.known_ints(n, 3, "axes");
        if (t.has_input(n, 4)) steps = t.known_ints(n, 4, "steps");
    }
    if (ends.size() != starts.size()) t.fail(n, "starts and ends differ in length");
    if (axes.empty())
        for (size_t i = 0; i < starts.size(); ++i) axes.push_back(int64_t(i));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (axes.size() != starts.size() || steps.size() != starts.size())
        t.fail(n, "starts, ends, axes and steps differ in length");
    const OnnxValue& data = t.input(n, 0);
    if (is_shape_like(data) && !is_scalar(data)) {
        const std::vector<std::string> e = t.int_exprs(n, 0, "data");
        const int64_t size = int64_t(e.size());
        if (starts.size() != 1 || steps[0] != 1) t.fail(n, "a Slice of a shape is folded for one axis, step 1");
        auto at = [&](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + size : v, 0, size); };
        const int64_t a = at(starts[0]), b = std::max(a, at(ends[0]));
        return t.set_value(n, shape_value({e.begin() + a, e.begin() + b}, false));
    }
    const OnnxValue& x = t.tensor_input(n, 0);
    std::vector<std::string> index(x.dims.size(), ":");
    std::vector<int64_t> dims = x.dims;
    std::vector<bool> seen(x.dims.size(), false);
    for (size_t i = 0; i < starts.size(); ++i) {
        const int64_t a = t.axis(n, axes[i], x.dims.size(), "axis");
        if (seen[size_t(a)]) t.fail(n, "an axis is given twice");
        seen[size_t(a)] = true;
        if (steps[i] < 1) t.fail(n, "step " + std::to_string(steps[i]) + ": the language's slices step forward");
        const int64_t size = x.dims[size_t(a)];
        int64_t s = starts[i], e = ends[i];
        if (size < 0) {
            // An open size: a bound from the end or past it needs the size.
            if (s < 0 || e < 0) t.fail(n, "negative bounds need the axis' size, which the model leaves open");
            index[size_t(a)] = std::to_string(s) + ":" + (e >= INT_MAX ? "" : std::to_string(e)) +
                               (steps[i] > 1 ? ":" + std::to_string(steps[i]) : "");
            dims[size_t(a)] = -1;
            continue;
        }
        // ONNX clamps the bounds to the axis; the language refuses bounds outside it.
        s = std::clamp<int64_t>(s < 0 ? s + size : s, 0, size);
        e = std::clamp<int64_t>(e < 0 ? e + size : e, 0, size);
        if (e <= s) t.fail(n, "the slice of axis " + std::to_string(a) + " is empty, which the language does not have");
        dims[size_t(a)] = (e - s - 1) / steps[i] + 1;
        if (s == 0 && e == size && steps[i] == 1) continue;
        index[size_t(a)] = (s ? std::to_string(s) : "") + ":" + (e == size ? "" : std::to_string(e)) +
                           (steps[i] > 1 ? ":" + std::to_string(steps[i]) : "");
    }
    while (!index.empty() && index.back() == ":") index.pop_back();
    if (index.empty()) return t.set_value(n, x);
    std::string text;
    for (size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + index[i];
    t.emit(n, x.var + "[" + text + "]", dims, x.dtype);
}

void cast(OnnxTranslator& t, const onnx::NodeProto& n) {
    t.only_attrs(n, {"to", "saturate"});
    const int64_t to = t.attr_int(n, "to", 0);
    const OnnxValue& data = t.input(n, 0);
    const bool to_int = to == TP::INT64 || to == TP::INT32 || to == TP::INT8;
    if (data.kind != Kind::Tensor) {
        if (is_shape_like(data) && to_int) return t.set_value(n, data);
        if (data.kind == Kind::Const) {
            // Folded: ONNX's cast of a float to an integer truncates toward zero.
            ConstTensor values = data.c();
            if (to_int && values.is_float())
                for (double& v : values.values) v = std::trunc(v);
            values.elem_type = int32_t(to);
            OnnxValue c = data;
            c.set_const(std::move(values));
            c.name = n.output(0);
            return t.set_value(n, c);
        }
        t.fail(n, "a shape computed at import cast to " + onnx_type_name(int32_t(to)) + " is not mapped");
    }
    arch::DType dtype;
    if (!onnx_dtype(int32_t(to), dtype))
        t.fail(n, "cast to " + onnx_type_name(int32_t(to)) +
                      ": the language's tensors are float16, bfloat16, float32, int8 or int32");
    const OnnxValue& x = t.tensor_input(n, 0);
    if (dtype == x.dtype) return t.set_value(n, x);
    const auto is_int = [](arch::DType d) { return d == arch::DType::Int8 || d == arch::DType::Int32; };
    if (is_int(dtype) && !is_int(x.dtype))
        t.fail(n, "cast of a float tensor to " + onnx_type_name(int32_t(to)) +
                      " is not mapped: ONNX truncates toward zero and the language's cast rounds half to even");
    t.emit(n, "pypo.op.cast(" + x.var + ", \"" + arch::dtype_name(dtype) + "\")", x.dims, dtype);
}

}  // namespace dsl::onnx_ops
