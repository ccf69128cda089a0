#include "dsl/import/onnx_gelu.h"

#include <cmath>
#include <vector>

#include "dsl/import/onnx_tensor.h"

namespace dsl {

namespace {

class GraphIndex {
public:
    explicit GraphIndex(const onnx::GraphProto& g) : g_(g) {
        for (const onnx::TensorProto& t : g.initializer()) constants_[t.name()] = &t;
        for (int i = 0; i < g.node_size(); ++i) {
            const onnx::NodeProto& n = g.node(i);
            for (const std::string& o : n.output()) producer_[o] = i;
            for (const std::string& in : n.input()) ++readers_[in];
            if (n.op_type() == "Constant" && n.output_size() == 1 && n.attribute_size() == 1 &&
                n.attribute(0).name() == "value" && n.attribute(0).has_t())
                constants_[n.output(0)] = &n.attribute(0).t();
        }
        for (const onnx::ValueInfoProto& o : g.output()) ++readers_[o.name()];
    }

    // The node producing `name` if it is `op` with two inputs and one output; -1 otherwise.
    int producer(const std::string& name, const char* op) const {
        auto p = producer_.find(name);
        if (p == producer_.end()) return -1;
        const onnx::NodeProto& n = g_.node(p->second);
        return n.op_type() == op && n.domain().empty() && n.output_size() == 1 &&
                       n.input_size() == (std::string(op) == "Erf" ? 1 : 2)
                   ? p->second
                   : -1;
    }
    // Whether `name` is read once (by one node input, not a graph output).
    bool read_once(const std::string& name) const {
        auto r = readers_.find(name);
        return r != readers_.end() && r->second == 1;
    }
    // Whether `name` is a one-element float constant within float16's
    // rounding of `want`.
    bool is(const std::string& name, double want) const {
        auto c = constants_.find(name);
        if (c == constants_.end()) return false;
        // One element by its dims before decoding anything (every Mul and
        // Add asks, and an initializer may be large).
        for (int64_t d : c->second->dims())
            if (d != 1) return false;
        ConstTensor t;
        std::string why;
        if (!decode_tensor(*c->second, t, why) || t.count() != 1 || !t.is_float()) return false;
        return std::fabs(t.values[0] - want) <= 1e-3 * std::fabs(want);
    }
    const onnx::NodeProto& node(int i) const { return g_.node(i); }

private:
    const onnx::GraphProto& g_;
    std::map<std::string, const onnx::TensorProto*> constants_;
    std::map<std::string, int> producer_;
    std::map<std::string, int> readers_;
};

// The operand of binary node `n` other than the constant `value`, or "".
std::string other_than(const GraphIndex& ix, const onnx::NodeProto& n, double value) {
    if (ix.is(n.input(1), value)) return n.input(0);
    if (ix.is(n.input(0), value)) return n.input(1);
    return "";
}

}  // namespace

GeluPatterns find_gelu_patterns(const onnx::GraphProto& g) {
    GeluPatterns found;
    const GraphIndex ix(g);
    for (int last = 0; last < g.node_size(); ++last) {
        // From the end: y = Mul(m, 0.5), m = Mul(x, a), a = Add(e, 1), e = Erf(d), d = x / sqrt(2).
        const onnx::NodeProto& y = g.node(last);
        if (y.op_type() != "Mul" || y.input_size() != 2 || !y.domain().empty() || y.output_size() != 1 ||
            y.output(0).empty())
            continue;
        const std::string m_name = other_than(ix, y, 0.5);
        const int m = m_name.empty() || !ix.read_once(m_name) ? -1 : ix.producer(m_name, "Mul");
        if (m < 0) continue;
        for (int side = 0; side < 2; ++side) {
            const std::string x = ix.node(m).input(side), a_name = ix.node(m).input(1 - side);
            const int a = ix.read_once(a_name) ? ix.producer(a_name, "Add") : -1;
            if (a < 0) continue;
            const std::string e_name = other_than(ix, ix.node(a), 1.0);
            const int e = !e_name.empty() && ix.read_once(e_name) ? ix.producer(e_name, "Erf") : -1;
            if (e < 0 || !ix.read_once(ix.node(e).input(0))) continue;
            int d = ix.producer(ix.node(e).input(0), "Div");
            bool scaled = d >= 0 && ix.node(d).input(0) == x && ix.is(ix.node(d).input(1), std::sqrt(2.0));
            if (!scaled) {
                d = ix.producer(ix.node(e).input(0), "Mul");
                scaled = d >= 0 && other_than(ix, ix.node(d), std::sqrt(0.5)) == x;
            }
            if (!scaled) continue;
            found.inner.insert({d, e, a, m});
            found.last_of[last] = x;
            break;
        }
    }
    return found;
}

}  // namespace dsl
