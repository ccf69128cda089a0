#include "dsl/import/onnx_translator.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "dsl/import/onnx_gelu.h"
#include "dsl/import/onnx_names.h"
#include "dsl/support/diagnostics.h"
#include "dsl/support/float_repr.h"

namespace dsl {

namespace {

using TP = onnx::TensorProto;
using AP = onnx::AttributeProto;

// A graph may hold at most this many nodes: a hostile model could list
// millions, each a line of the program.
constexpr int kMaxNodes = 200000;
// A shape computed at import: at most this many elements, each an
// expression of at most this many characters (Add(s, s) and Concat(s, s)
// double them, so a chain of such nodes would grow exponentially).
constexpr size_t kMaxShapeElements = 64;
// All initializers together (decoded to doubles: 2 GiB at most).
constexpr int64_t kMaxTotalInitializerElements = int64_t(1) << 28;
constexpr size_t kMaxShapeExprChars = 4096;

std::string node_label(const onnx::NodeProto& n) {
    return "node '" + comment_text(n.name().empty() ? (n.output_size() ? n.output(0) : std::string("?")) : n.name()) +
           "' (" + comment_text(n.op_type()) + ")";
}

std::string attr_type_name(int type) {
    return AP::AttributeType_IsValid(type) ? AP::AttributeType_Name(AP::AttributeType(type))
                                           : "type " + std::to_string(type);
}

}  // namespace

bool onnx_dtype(int32_t elem_type, arch::DType& out) {
    switch (elem_type) {
    case TP::FLOAT: out = arch::DType::Float32; return true;
    case TP::FLOAT16: out = arch::DType::Float16; return true;
    case TP::BFLOAT16: out = arch::DType::BFloat16; return true;
    case TP::INT8: out = arch::DType::Int8; return true;
    case TP::INT32: out = arch::DType::Int32; return true;
    default: return false;
    }
}

OnnxTranslator::OnnxTranslator(std::string path, const onnx::ModelProto& model)
    : path_(std::move(path)), model_(model) {}

void OnnxTranslator::fail(const std::string& message) const { throw file_error(path_, message); }

void OnnxTranslator::fail(const onnx::NodeProto& n, const std::string& message) const {
    throw file_error(path_, node_label(n) + ": " + message);
}

std::string OnnxTranslator::dim_text(const OnnxValue& t, size_t i) {
    return t.dims[i] >= 0 ? std::to_string(t.dims[i]) : t.var + ".shape[" + std::to_string(i) + "]";
}

std::string OnnxTranslator::tuple(const std::vector<std::string>& items) {
    std::string s = "(";
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
    return s + (items.size() == 1 ? ",)" : ")");
}

std::string OnnxTranslator::tuple(const std::vector<int64_t>& items) {
    std::vector<std::string> s;
    for (int64_t v : items) s.push_back(std::to_string(v));
    return tuple(s);
}

bool OnnxTranslator::known_int(const std::string& e, int64_t& v) {
    if (e.empty() || e.find_first_not_of("-0123456789") != std::string::npos) return false;
    errno = 0;
    char* end = nullptr;
    v = std::strtoll(e.c_str(), &end, 10);
    return errno == 0 && end == e.c_str() + e.size();
}

std::string OnnxTranslator::number(double v) {
    const float f = float(v);
    if (double(f) == v && std::isfinite(v))
        for (int digits = 1; digits <= 9; ++digits) {
            char text[32];
            std::snprintf(text, sizeof text, "%.*g", digits, double(f));
            if (std::strtof(text, nullptr) == f) return float_repr(std::strtod(text, nullptr));
        }
    return float_repr(v);
}

std::string OnnxTranslator::finite_number(const onnx::NodeProto& n, double v, const std::string& what) const {
    if (!std::isfinite(v))
        fail(n, what + " is " +
                    (std::isnan(v) ? "NaN"
                     : v > 0       ? "inf"
                                   : "-inf") +
                    ", which the language has no literal for (its numbers are finite)");
    return number(v);
}

int64_t OnnxTranslator::axis(const onnx::NodeProto& n, int64_t a, size_t rank, const char* what) const {
    const int64_t r = int64_t(rank);
    if (a < -r || a >= r)
        fail(n, std::string(what) + " " + std::to_string(a) + " is out of range for rank " + std::to_string(r));
    return a < 0 ? a + r : a;
}

std::string OnnxTranslator::unique_var(const std::string& onnx_name) {
    const std::string base = identifier_of(onnx_name);
    std::string v = base;
    for (int k = 2; !vars_.insert(v).second; ++k) v = base + "_" + std::to_string(k);
    return v;
}

// ---- inputs ---------------------------------------------------------------

const OnnxValue& OnnxTranslator::value(const onnx::NodeProto& n, const std::string& name) const {
    auto v = values_.find(name);
    if (v == values_.end())
        fail(n, "input '" + comment_text(name) + "' has no value (an output its producer does not compute)");
    return v->second;
}

bool OnnxTranslator::has_input(const onnx::NodeProto& n, int i) const {
    return i < n.input_size() && !n.input(i).empty();
}

const OnnxValue& OnnxTranslator::input(const onnx::NodeProto& n, int i) const {
    if (!has_input(n, i)) fail(n, "input " + std::to_string(i) + " is missing");
    return value(n, n.input(i));
}

const OnnxValue& OnnxTranslator::tensor_input(const onnx::NodeProto& n, int i) {
    input(n, i);
    return tensor_value(n, n.input(i));
}

OnnxValue& OnnxTranslator::tensor_value(const onnx::NodeProto& n, const std::string& name) {
    value(n, name);  // fail() for a name nothing computed
    OnnxValue& v = values_.at(name);
    if (v.kind == OnnxValue::Kind::Shape)
        fail(n, "input '" + comment_text(name) +
                    "' is a shape computed at import; the language has no integer tensors of shapes");
    if (v.kind == OnnxValue::Kind::Const) weight_of(v);
    return v;
}

const ConstTensor& OnnxTranslator::const_input(const onnx::NodeProto& n, int i, const char* what) const {
    const OnnxValue& v = input(n, i);
    if (v.kind == OnnxValue::Kind::Const) return v.c();
    fail(n, std::string(what) + " (input '" + comment_text(n.input(i)) +
                "') must be a constant: an initializer or a Constant node");
}

std::vector<std::string> OnnxTranslator::int_exprs(const onnx::NodeProto& n, int i, const char* what) const {
    const OnnxValue& v = input(n, i);
    if (v.kind == OnnxValue::Kind::Shape) return v.exprs;
    const ConstTensor& c = const_input(n, i, what);
    if (!c.is_integer()) fail(n, std::string(what) + " must be integers, got " + onnx_type_name(c.elem_type));
    std::vector<std::string> e;
    for (double x : c.values) e.push_back(std::to_string(saturated_int64(x)));
    return e;
}

std::vector<int64_t> OnnxTranslator::known_ints(const onnx::NodeProto& n, int i, const char* what) const {
    std::vector<int64_t> out;
    for (const std::string& e : int_exprs(n, i, what)) {
        int64_t v;
        if (!known_int(e, v)) fail(n, std::string(what) + " must be known when the model is imported, got " + e);
        out.push_back(v);
    }
    return out;
}

// ---- attributes -------------------------------------------------------------

namespace {

const AP* find_attr(const onnx::NodeProto& n, const char* name) {
    for (const AP& a : n.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

}  // namespace

bool OnnxTranslator::has_attr(const onnx::NodeProto& n, const char* name) const { return find_attr(n, name); }

int64_t OnnxTranslator::attr_int(const onnx::NodeProto& n, const char* name, int64_t fallback) const {
    const AP* a = find_attr(n, name);
    if (!a) return fallback;
    if (a->type() != AP::INT)
        fail(n, std::string("attribute '") + name + "' must be INT, got " + attr_type_name(a->type()));
    return a->i();
}

double OnnxTranslator::attr_float(const onnx::NodeProto& n, const char* name, double fallback) const {
    const AP* a = find_attr(n, name);
    if (!a) return fallback;
    if (a->type() != AP::FLOAT)
        fail(n, std::string("attribute '") + name + "' must be FLOAT, got " + attr_type_name(a->type()));
    return a->f();
}

std::vector<int64_t> OnnxTranslator::attr_ints(const onnx::NodeProto& n, const char* name,
                                               const std::vector<int64_t>& fallback) const {
    const AP* a = find_attr(n, name);
    if (!a) return fallback;
    if (a->type() != AP::INTS)
        fail(n, std::string("attribute '") + name + "' must be INTS, got " + attr_type_name(a->type()));
    return {a->ints().begin(), a->ints().end()};
}

std::vector<int64_t> OnnxTranslator::attr_sizes(const onnx::NodeProto& n, const char* name,
                                                const std::vector<int64_t>& fallback) const {
    const std::vector<int64_t> v = attr_ints(n, name, fallback);
    for (int64_t x : v)
        if (x > kMaxDim || x < -kMaxDim)
            fail(n, std::string("attribute '") + name + "' holds " + std::to_string(x) + ", beyond the importer's " +
                        "limit of " + std::to_string(kMaxDim));
    return v;
}

std::string OnnxTranslator::attr_string(const onnx::NodeProto& n, const char* name, const std::string& fallback) const {
    const AP* a = find_attr(n, name);
    if (!a) return fallback;
    if (a->type() != AP::STRING)
        fail(n, std::string("attribute '") + name + "' must be STRING, got " + attr_type_name(a->type()));
    return a->s();
}

const onnx::TensorProto* OnnxTranslator::attr_tensor(const onnx::NodeProto& n, const char* name) const {
    const AP* a = find_attr(n, name);
    if (!a) return nullptr;
    if (a->type() != AP::TENSOR)
        fail(n, std::string("attribute '") + name + "' must be TENSOR, got " + attr_type_name(a->type()));
    return &a->t();
}

void OnnxTranslator::only_attrs(const onnx::NodeProto& n, std::initializer_list<const char*> known) const {
    for (const AP& a : n.attribute()) {
        bool ok = false;
        for (const char* k : known) ok |= a.name() == k;
        if (!ok) fail(n, "attribute '" + comment_text(a.name()) + "' is not supported by the importer");
    }
}

// ---- outputs ----------------------------------------------------------------

const OnnxValue& OnnxTranslator::emit(const onnx::NodeProto& n, const std::string& call, std::vector<int64_t> dims,
                                      arch::DType dtype, const std::string& note) {
    OnnxValue v;
    v.var = unique_var(n.output(0));
    v.dims = std::move(dims);
    v.dtype = dtype;
    body_ += v.var + " = " + call + "  # " + node_label(n) + note + "\n";
    values_[n.output(0)] = v;
    return values_[n.output(0)];
}

std::string OnnxTranslator::emit_temp(const onnx::NodeProto& n, const std::string& name, const std::string& call,
                                      const std::string& note) {
    const std::string var = unique_var(name);
    body_ += var + " = " + call + "  # " + node_label(n) + note + "\n";
    return var;
}

void OnnxTranslator::set_value(const onnx::NodeProto& n, OnnxValue v) {
    if (v.kind == OnnxValue::Kind::Shape) {
        if (v.exprs.size() > kMaxShapeElements)
            fail(n, "a shape of " + std::to_string(v.exprs.size()) + " elements, more than the importer's limit of " +
                        std::to_string(kMaxShapeElements));
        for (const std::string& e : v.exprs)
            if (e.size() > kMaxShapeExprChars)
                fail(n, "a shape expression of " + std::to_string(e.size()) +
                            " characters, more than the importer's limit of " + std::to_string(kMaxShapeExprChars));
    }
    values_[n.output(0)] = std::move(v);
}

std::string OnnxTranslator::add_weight(const std::string& name, const ConstTensor& c, arch::DType dtype,
                                       const ConstTensor* source) {
    // A weight derived again from the same constant under the same name
    // (an Identity of an initializer, two Gemms sharing a transposed B) is
    // the weight already made.
    const auto key = std::make_pair(source, name);
    if (source) {
        auto made = weights_made_.find(key);
        if (made != weights_made_.end() && made->second.second == dtype) return made->second.first;
    }
    std::string literal;
    if (!string_literal(name, literal)) fail("the name of initializer '" + comment_text(name) + "' is not UTF-8");
    if (!tensor_names_.insert(name).second) fail("two tensors are named '" + comment_text(name) + "'");
    const std::string var = unique_var(name);
    std::vector<int64_t> shape = c.dims;
    // The language's tensors have at least one dimension: a scalar weight is (1,).
    if (shape.empty()) shape.push_back(1);
    decls_ += var + " = pypo.weight(" + literal + ", shape=" + tuple(shape) + ", dtype=\"" + arch::dtype_name(dtype) +
              "\")\n";
    ImportedWeight w;
    w.name = name;
    w.shape = shape;
    w.dtype = dtype;
    w.values.assign(c.values.begin(), c.values.end());
    out_.weights.push_back(std::move(w));
    if (source) weights_made_[key] = {var, dtype};
    return var;
}

std::string OnnxTranslator::add_folded_weight(const std::string& base, const ConstTensor& c, arch::DType dtype) {
    const std::vector<int64_t> shape = c.dims.empty() ? std::vector<int64_t>{1} : c.dims;
    const std::vector<float> values(c.values.begin(), c.values.end());  // as add_weight stores them
    for (int k = 1;; ++k) {
        const std::string name = k == 1 ? base : base + "." + std::to_string(k);
        const auto made = folded_.find(name);
        if (made == folded_.end()) {
            const std::string var = add_weight(name, c, dtype);
            folded_[name] = {out_.weights.size() - 1, var};
            return var;
        }
        const ImportedWeight& w = out_.weights[made->second.first];
        // The same bits (a NaN is the same NaN, -0 is not 0): the same weight.
        if (w.shape == shape && w.dtype == dtype && w.values.size() == values.size() &&
            std::memcmp(w.values.data(), values.data(), values.size() * sizeof(float)) == 0)
            return made->second.second;
    }
}

std::string OnnxTranslator::weight_of(OnnxValue& c) {
    arch::DType dtype;
    if (!onnx_dtype(c.c().elem_type, dtype)) {
        if (c.c().elem_type == TP::DOUBLE) dtype = arch::DType::Float32;
        else
            fail(node_label(*current_) + ": constant '" + comment_text(c.name) + "' of " +
                 onnx_type_name(c.c().elem_type) +
                 " is used as a tensor; the language's tensors are float16, "
                 "bfloat16, float32, int8 or int32");
    }
    OnnxValue t;
    t.var = add_weight(c.name, c.c(), dtype, c.const_values.get());
    t.dims = c.c().dims.empty() ? std::vector<int64_t>{1} : c.c().dims;
    t.dtype = dtype;
    t.declared = true;
    c = t;
    return c.var;
}

std::string OnnxTranslator::declare_input(const onnx::ValueInfoProto& v) {
    std::string literal;
    if (!string_literal(v.name(), literal)) fail("the name of input '" + comment_text(v.name()) + "' is not UTF-8");
    if (!v.type().has_tensor_type())
        fail("input '" + comment_text(v.name()) + "' is not a tensor (sequences and maps are not supported)");
    const onnx::TypeProto::Tensor& tt = v.type().tensor_type();
    arch::DType dtype;
    std::string note;
    if (tt.elem_type() == TP::INT64) {
        // Token ids arrive as int64 from PyTorch; the language's index type is int32.
        dtype = arch::DType::Int32, note = "  # INT64 in the model: the language indexes with int32";
    } else if (!onnx_dtype(tt.elem_type(), dtype))
        fail("input '" + comment_text(v.name()) + "' is " + onnx_type_name(tt.elem_type()) +
             "; the language's tensors are float16, bfloat16, float32, int8 or int32");
    if (!tt.has_shape()) fail("input '" + comment_text(v.name()) + "' has no shape: give its rank in the model");
    if (tt.shape().dim_size() == 0)
        fail("input '" + comment_text(v.name()) + "' is a scalar; the language's tensors have at least one dimension");
    OnnxValue t;
    std::vector<std::string> dims;
    for (const auto& d : tt.shape().dim()) {
        if (d.has_dim_value()) {
            if (d.dim_value() < 1 || d.dim_value() > kMaxDim)
                fail("input '" + comment_text(v.name()) + "' has dimension " + std::to_string(d.dim_value()) +
                     ", out of range (1 to " + std::to_string(kMaxDim) + ")");
            dims.push_back(std::to_string(d.dim_value()));
            t.dims.push_back(d.dim_value());
        } else {
            // A symbolic (dim_param) or unknown dimension: bound with --shape.
            dims.push_back("None");
            t.dims.push_back(-1);
        }
    }
    tensor_names_.insert(v.name());
    t.var = unique_var(v.name());
    t.dtype = dtype;
    t.declared = true;
    decls_ += t.var + " = pypo.input(" + literal + ", shape=" + tuple(dims) + ", dtype=\"" + arch::dtype_name(dtype) +
              "\")" + note + "\n";
    values_[v.name()] = t;
    return t.var;
}

// ---- the graph ----------------------------------------------------------------

void OnnxTranslator::translate(const onnx::NodeProto& n) {
    current_ = &n;
    if (!n.domain().empty() && n.domain() != "ai.onnx")
        fail(n, "operators of domain '" + comment_text(n.domain()) + "' are not supported (only the default domain)");
    const auto& table = onnx_op_table();
    const auto op = table.find(n.op_type());
    if (op == table.end()) {
        std::string names;
        for (const auto& [name, f] : table) names += (names.empty() ? "" : ", ") + name;
        const char* reason = onnx_unsupported_reason(n.op_type());
        fail(n, "operator " + comment_text(n.op_type()) + " is not supported" +
                    (reason ? std::string(" (") + reason + ")" : std::string()) + "; supported: " + names);
    }
    if (n.output_size() < 1 || n.output(0).empty()) fail(n, "the node has no output");
    op->second(*this, n);
    // The operators the importer maps compute their first output only (each
    // refuses the optional outputs it knows first, with its own message).
    for (int o = 1; o < n.output_size(); ++o)
        if (!n.output(o).empty() && !values_.count(n.output(o)))
            fail(n, "its output " + std::to_string(o) + " ('" + comment_text(n.output(o)) +
                        "') is not mapped: the importer computes the first output only");
}

void OnnxTranslator::translate_gelu(const onnx::NodeProto& n, const std::string& x) {
    current_ = &n;
    const OnnxValue& v = tensor_value(n, x);
    emit(n, "pypo.op.gelu(" + v.var + ")", v.dims, v.dtype,
         ": the GELU x * 0.5 * (1 + Erf(x / sqrt(2))) of x = '" + comment_text(x) + "'");
}

void OnnxTranslator::emit_outputs() {
    const onnx::GraphProto& g = model_.graph();
    if (g.output_size() == 0) fail("the graph has no outputs");
    std::set<std::string> vars;
    for (const onnx::ValueInfoProto& o : g.output()) {
        auto v = values_.find(o.name());
        if (v == values_.end()) fail("graph output '" + comment_text(o.name()) + "' is not produced by any node");
        std::string literal;
        if (!string_literal(o.name(), literal))
            fail("the name of output '" + comment_text(o.name()) + "' is not UTF-8");
        if (v->second.kind != OnnxValue::Kind::Tensor || v->second.declared)
            fail("graph output '" + comment_text(o.name()) +
                 "' is an input, an initializer or a constant; the language's outputs are computed");
        if (!vars.insert(v->second.var).second)
            fail("graph output '" + comment_text(o.name()) + "' is the same tensor as another output");
        body_ += "pypo.output(" + literal + ", " + v->second.var + ")\n";
    }
}

ImportedModel OnnxTranslator::run() {
    if (!model_.has_graph()) fail("the model has no graph");
    for (const auto& os : model_.opset_import())
        if (os.domain().empty() || os.domain() == "ai.onnx") opset_ = os.version();
    if (opset_ == 0) fail("the model imports no opset of the default domain");
    if (opset_ < 7 || opset_ > 17) fail("opset " + std::to_string(opset_) + " is not supported (7 to 17)");
    const onnx::GraphProto& g = model_.graph();
    if (g.node_size() > kMaxNodes)
        fail("the graph has " + std::to_string(g.node_size()) + " nodes, more than the importer's limit of " +
             std::to_string(kMaxNodes));
    // Every initializer is decoded up front (as doubles): their elements
    // together within a budget, counted from the dims before any is decoded.
    int64_t total = 0;
    for (const TP& init : g.initializer()) {
        int64_t count = 1;
        for (int64_t d : init.dims())
            if (d < 0 || __builtin_mul_overflow(count, d, &count) || count > kMaxTensorElements) count = 0;
        total += count;  // each within kMaxTensorElements (decode_tensor refuses the others)
        if (total > kMaxTotalInitializerElements)
            fail("the initializers hold more than " + std::to_string(kMaxTotalInitializerElements) +
                 " elements together, the importer's limit");
    }
    for (const TP& init : g.initializer()) {
        OnnxValue c;
        c.kind = OnnxValue::Kind::Const;
        c.name = init.name();
        std::string why;
        ConstTensor values;
        if (!decode_tensor(init, values, why)) fail("initializer '" + comment_text(init.name()) + "': " + why);
        c.set_const(std::move(values));
        if (!values_.emplace(init.name(), std::move(c)).second)
            fail("two initializers are named '" + comment_text(init.name()) + "'");
    }
    std::set<std::string> inputs;
    for (const onnx::ValueInfoProto& in : g.input()) {
        if (!inputs.insert(in.name()).second) fail("two graph inputs are named '" + comment_text(in.name()) + "'");
        if (!values_.count(in.name())) declare_input(in);  // older models list initializers as inputs too
    }

    // Nodes in an order where every input comes first (ONNX requires the
    // listed order to be one; exporters keep it, hand-made graphs may not).
    std::map<std::string, int> producer;
    for (int i = 0; i < g.node_size(); ++i)
        for (const std::string& o : g.node(i).output()) {
            if (o.empty()) continue;
            if (values_.count(o) || !producer.emplace(o, i).second)
                fail(node_label(g.node(i)) + ": its output '" + comment_text(o) + "' is already defined");
        }
    std::vector<int> pending(size_t(g.node_size()), 0);
    std::vector<std::vector<int>> consumers(size_t(g.node_size()));
    std::set<int> ready;  // the lowest index first: the listed order where it is one
    for (int i = 0; i < g.node_size(); ++i) {
        const onnx::NodeProto& n = g.node(i);
        for (const std::string& in : n.input()) {
            if (in.empty() || values_.count(in)) continue;
            auto p = producer.find(in);
            if (p == producer.end())
                fail(node_label(n) + ": input '" + comment_text(in) +
                     "' is not a graph input, an initializer or any node's output");
            ++pending[size_t(i)];
            consumers[size_t(p->second)].push_back(i);
        }
        if (!pending[size_t(i)]) ready.insert(i);
    }
    const GeluPatterns gelus = find_gelu_patterns(g);
    int done = 0;
    while (!ready.empty()) {
        const int i = *ready.begin();
        ready.erase(ready.begin());
        const auto gelu = gelus.last_of.find(i);
        if (gelu != gelus.last_of.end()) translate_gelu(g.node(i), gelu->second);
        else if (!gelus.inner.count(i)) translate(g.node(i));
        ++done;
        for (int c : consumers[size_t(i)])
            if (--pending[size_t(c)] == 0) ready.insert(c);
    }
    if (done < g.node_size())
        for (int i = 0; i < g.node_size(); ++i)
            if (pending[size_t(i)]) fail(node_label(g.node(i)) + ": the graph has a cycle through this node");
    current_ = nullptr;
    emit_outputs();

    std::string producer_text = model_.producer_name().empty() ? "" : ", producer " + model_.producer_name();
    std::string text = "# Imported from " + comment_text(path_) + " by davinci-sim (ONNX opset " +
                       std::to_string(opset_) + comment_text(producer_text) +
                       ").\n# Inputs, weights and outputs keep the model's tensor names; weights take the model's "
                       "values under --functional.\nimport pypto as pypo\n\n" +
                       decls_ + "\n" + body_;
    auto f = std::make_shared<SourceFile>();
    f->path = "<import " + path_ + ">";
    f->text = std::move(text);
    out_.program = f;
    return std::move(out_);
}

}  // namespace dsl
