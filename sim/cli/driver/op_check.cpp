#include "sim/cli/driver/op_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <set>

#include "dsl/reference/indexing.h"
#include "sim/cli/driver/functional_run.h"
#include "sim/cli/driver/mixed_precision.h"
#include "sim/cli/driver/simulated_values.h"
#include "sim/cli/driver/stored_results.h"

namespace cli {

namespace {

// The unit roundoff of a float dtype: half its spacing at 1.
double unit_roundoff(arch::DType t) {
    switch (t) {
    case arch::DType::Float16: return std::ldexp(1.0, -11);
    case arch::DType::BFloat16: return std::ldexp(1.0, -8);
    default: return std::ldexp(1.0, -24);
    }
}

// For an operation whose every result element is a sum of terms (each a
// product of input values, or one input value): how much rounding its
// accumulation may add, per unit of the sum of the terms' magnitudes
// (docs/functional.md §5). A cube operation accumulates K terms in
// float32 one after another (K u32); the vector units add a row's values
// as a tree (timing model: a reduction's combining tree), ceil(log2 K) + 1
// roundings in the precision p they compute in, and a depthwise
// convolution's or a pool's K taps one after another (K u(p)); an
// element-wise add or sub, one rounding. 0 for any other operation.
double accumulation_gamma(const dsl::TaskGraph& g, const dsl::OpNode& op, bool on_cube, arch::DType p) {
    const auto elements = [&](int t) { return double(dsl::count(g.tensors[size_t(t)].shape)); };
    const double per_output = op.inputs.empty() ? 1.0 : std::max(1.0, elements(op.inputs[0]) / elements(op.output));
    switch (op.kind) {
    case dsl::OpKind::Matmul: {
        const double k = double(g.tensors[size_t(op.inputs[0])].shape.back());
        return on_cube ? k * unit_roundoff(arch::DType::Float32) : k * unit_roundoff(p);
    }
    case dsl::OpKind::Conv2d:
    case dsl::OpKind::DepthwiseConv2d: {
        const auto& w = g.tensors[size_t(op.inputs[1])].shape;
        const double k = double(dsl::count(w)) / double(std::max<int64_t>(1, w[0]));
        return on_cube ? k * unit_roundoff(arch::DType::Float32) : k * unit_roundoff(p);
    }
    case dsl::OpKind::ReduceSum:
    case dsl::OpKind::ReduceMean: return (std::ceil(std::log2(per_output)) + 1) * unit_roundoff(p);
    case dsl::OpKind::AvgPool:
    case dsl::OpKind::GlobalAvgPool: {
        double k = per_output;
        if (auto a = op.attrs.find("kernel_size"); a != op.attrs.end() && !a->second.ints.empty()) {
            k = 1;
            for (int64_t d : a->second.ints) k *= double(d);
        }
        return k * unit_roundoff(p);
    }
    case dsl::OpKind::Add:
    case dsl::OpKind::Sub: return unit_roundoff(p);
    default: return 0;
    }
}

// The least precise of two float dtypes (bfloat16 < float16 < float32).
arch::DType least_precise(arch::DType a, arch::DType b) {
    if (a == arch::DType::BFloat16 || b == arch::DType::BFloat16) return arch::DType::BFloat16;
    if (a == arch::DType::Float16 || b == arch::DType::Float16) return arch::DType::Float16;
    return arch::DType::Float32;
}

class Checker {
public:
    Checker(const dsl::TaskGraph& moved, const std::map<int, func::HostTensor>& inputs, const dsl::TaskGraph& lowered,
            const arch::Program& program, func::Executor& run)
        : g_(moved), lowered_(lowered), values_(moved, inputs, lowered, program, run) {}

    const std::optional<dsl::RefValues>& simulated(int t) { return values_.simulated(t); }

    OpCheck check(const dsl::OpNode& op, const dsl::RefValues& from_inputs) {
        OpCheck c;
        c.kind = dsl::op_kind_name(op.kind);
        c.where = dsl::file_line_col(op.loc);
        std::map<int, dsl::RefValues> local;  // the region's results, from the simulated values
        std::vector<int> given;               // the tensors whose simulated values it starts from
        // The value of tensor t as the region computes it.
        std::function<const dsl::RefValues&(int)> value = [&](int t) -> const dsl::RefValues& {
            if (t != op.output)
                if (const std::optional<dsl::RefValues>& s = simulated(t)) {
                    given.push_back(t);
                    return *s;
                }
            if (auto it = local.find(t); it != local.end()) return it->second;
            const int p = g_.tensors[size_t(t)].producer;
            if (p < 0) throw dsl::ReferenceError("'" + g_.tensors[size_t(t)].name + "' has no values");
            const dsl::OpNode& inner = g_.ops[size_t(p)];
            std::vector<const dsl::RefValues*> in;
            for (int i : inner.inputs) in.push_back(&value(i));
            if (t != op.output) c.region.push_back(g_.tensors[size_t(t)].name);
            return local.emplace(t, dsl::run_reference_op(g_, inner, in)).first->second;
        };
        const dsl::RefValues& ref = value(op.output);
        const arch::DType precision = region_precision(op.output, given);
        // A sum's accumulation may add rounding in proportion to the sum of
        // its terms' magnitudes (the operation applied to its operands'
        // magnitudes), not to the result, which cancellation makes small.
        std::vector<double> extra;
        const double gamma = arch::dtype_is_int(precision) ? 0.0 : accumulation_gamma(g_, op, on_cube(op), precision);
        if (gamma > 0) {
            std::vector<dsl::RefValues> abs_in;
            for (size_t k = 0; k < op.inputs.size(); ++k) {
                dsl::RefValues a = value(op.inputs[k]);
                // |a| - (-|b|) for a sub: the sum of the magnitudes too.
                const double sign = op.kind == dsl::OpKind::Sub && k == 1 ? -1.0 : 1.0;
                for (double& x : a) x = sign * std::fabs(x);
                abs_in.push_back(std::move(a));
            }
            std::vector<const dsl::RefValues*> in;
            for (const dsl::RefValues& a : abs_in) in.push_back(&a);
            extra = dsl::run_reference_op(g_, op, in);
            for (double& x : extra) x = gamma * std::fabs(x);
        }
        const std::vector<float>& sim = simulated_floats(op.output);
        const std::string& name = g_.tensors[size_t(op.output)].name;
        c.own = compare_output(name, g_.tensors[size_t(op.output)].shape, precision, sim, ref, extra);
        c.from_inputs = compare_output(name, g_.tensors[size_t(op.output)].shape, precision, sim, from_inputs);
        return c;
    }

private:
    // Whether elaborated op `op` ran on a cube: the compiled program has an
    // operation of its kind implementing it (a depthwise convolution the
    // compiler put on the vector units has another kind).
    bool on_cube(const dsl::OpNode& op) const {
        return (op.kind == dsl::OpKind::Matmul || op.kind == dsl::OpKind::Conv2d) &&
               lowered_op(lowered_, g_, int(&op - g_.ops.data())) >= 0;
    }

    // The precision the region computed `out` in from the `given` tensors.
    arch::DType region_precision(int out, const std::vector<int>& given) const {
        const int start = values_.lowered_index(out);
        if (start < 0) return g_.tensors[size_t(out)].dtype;
        std::vector<bool> stop(lowered_.tensors.size(), false);
        for (int t : given)
            if (values_.lowered_index(t) >= 0) stop[size_t(values_.lowered_index(t))] = true;
        return computed_precision(lowered_, start, stop);
    }

    const std::vector<float>& simulated_floats(int t) {
        floats_.assign(simulated(t)->begin(), simulated(t)->end());
        return floats_;
    }

    const dsl::TaskGraph& g_;
    const dsl::TaskGraph& lowered_;
    SimulatedValues values_;
    std::vector<float> floats_;
};

}  // namespace

arch::DType computed_precision(const dsl::TaskGraph& lowered, int tensor, const std::vector<bool>& given) {
    std::vector<bool> seen(lowered.tensors.size(), false);
    arch::DType least = arch::DType::Float32;
    bool any_float = false;
    std::vector<int> todo{tensor};
    while (!todo.empty()) {
        const int t = todo.back();
        todo.pop_back();
        if (seen[size_t(t)]) continue;
        seen[size_t(t)] = true;
        // Given values, and the program's inputs, are exact: what matters
        // is what was computed from them.
        const int p = lowered.tensors[size_t(t)].producer;
        if ((size_t(t) < given.size() && given[size_t(t)]) || p < 0) continue;
        const arch::DType d = lowered.tensors[size_t(t)].dtype;
        if (!arch::dtype_is_int(d)) any_float = true, least = least_precise(least, d);
        {
            const dsl::OpNode& op = lowered.ops[size_t(p)];
            for (int in : op.inputs) {
                todo.push_back(in);
                // An operation computes in its operands' dtype when it is
                // less precise than its result's (a depthwise convolution of
                // float16 into float32); a cast that widens is exact.
                const arch::DType d_in = lowered.tensors[size_t(in)].dtype;
                if (op.kind != dsl::OpKind::Cast && !arch::dtype_is_int(d_in)) least = least_precise(least, d_in);
            }
        }
    }
    const arch::DType own = lowered.tensors[size_t(tensor)].dtype;
    return arch::dtype_is_int(own) && !any_float ? own : least;
}

std::vector<OpCheck> check_operations(const dsl::TaskGraph& moved, const std::vector<dsl::RefValues>& reference,
                                      const std::map<int, func::HostTensor>& inputs, const dsl::TaskGraph& lowered,
                                      const arch::Program& program, func::Executor& run) {
    Checker checker(moved, inputs, lowered, program, run);
    std::vector<OpCheck> out;
    for (const dsl::OpNode& op : moved.ops)
        if (checker.simulated(op.output)) out.push_back(checker.check(op, reference[size_t(op.output)]));
    return out;
}

std::string format_op_check(const OpCheck& c) {
    std::string s = "  " + c.kind + " at " + c.where;
    if (!c.region.empty()) {
        s += " (with";
        for (const std::string& r : c.region) s += " " + r;
        s += ")";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", c.from_inputs.max_abs);
    return s + ": " + check_figures(c.own) + "; from the program's inputs: max abs error " + buf + " -> " +
           (c.own.pass ? "pass" : "FAIL") + "\n";
}

}  // namespace cli
