#include "sim/cli/driver/mixed_precision.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "dsl/ir/fusion_groups.h"
#include "dsl/lower/program/lower.h"
#include "dsl/support/diagnostics.h"
#include "sim/cli/driver/stored_results.h"
#include "sim/hw/chip.h"
#include "sim/trace/op_stats.h"
#include "sim/trace/run_stats.h"

namespace cli {

namespace {

struct Values {
    bool inf = false, nan = false, all_zero = true, nonzero = false;  // nonzero: a finite non-zero value
    bool finite() const { return !inf && !nan; }
};

Values scan(func::Executor& run, const arch::Program& p, size_t t) {
    Values v;
    const std::optional<func::HostTensor> h = read_tensor(run, p, t);
    if (!h) return v;
    for (float x : h->values) {
        if (std::isnan(x)) v.nan = true;
        else if (std::isinf(x)) v.inf = true;
        else if (x != 0) v.nonzero = true;
        if (x != 0) v.all_zero = false;  // NaN != 0 too
    }
    return v;
}

// Why op `i` of `g` (as functional run `run` computed it) is abnormal, "" if it is
// not, or if its abnormal values came in through its inputs. A fusion
// group is judged by its stored result against the group's inputs.
std::string abnormal(const dsl::TaskGraph& g, const arch::Program& p, func::Executor& run, int i) {
    const dsl::OpNode& op = g.ops[size_t(i)];
    const arch::TensorPlacement& out = p.tensors[size_t(op.output)];
    if (!stored(g, p, i) || !readable(out) || out.role.find("view of") != std::string::npos ||
        out.role.find("updated in place") != std::string::npos)
        return "";
    const Values y = scan(run, p, size_t(op.output));
    bool inputs_finite = true, inputs_nonzero = false;
    std::vector<int> reads = op.inputs;
    if (op.fused_into >= 0 && ran_fused(g, p, op.fused_into)) {
        const dsl::OpNode& head = g.ops[size_t(op.fused_into)];
        reads = head.inputs;
        for (int k : head.epilogue)
            reads.insert(reads.end(), g.ops[size_t(k)].inputs.begin(), g.ops[size_t(k)].inputs.end());
        reads.erase(std::remove_if(reads.begin(), reads.end(),
                                   [&](int t) {
                                       const int producer = g.tensors[size_t(t)].producer;
                                       return producer >= 0 && !stored(g, p, producer);
                                   }),
                    reads.end());
    }
    for (int in : reads) {
        const arch::TensorPlacement& t = p.tensors[size_t(in)];
        if (!readable(t)) continue;
        const Values x = scan(run, p, size_t(in));
        inputs_finite = inputs_finite && x.finite();
        inputs_nonzero = inputs_nonzero || x.nonzero;
    }
    // A number operand counts as an input value too.
    if (auto s = op.attrs.find("scalar"); s != op.attrs.end() && s->second.f != 0) inputs_nonzero = true;
    if (!inputs_finite) return "";
    if (y.inf) return std::string(arch::dtype_name(out.dtype)) + " result overflows to inf";
    if (y.nan) return std::string(arch::dtype_name(out.dtype)) + " result contains NaN";
    if (y.all_zero && inputs_nonzero)
        return std::string(arch::dtype_name(out.dtype)) + " result underflows to all zeros";
    return "";
}

// Why switched op `i` is still abnormal in float32, "" if it is not. Inside
// a fusion group that ran fused its result never reaches memory: the
// group's stored result is judged instead, as a new switch is.
std::string still_abnormal(const dsl::TaskGraph& g, const arch::Program& p, func::Executor& run, int i) {
    if (stored(g, p, i)) return abnormal(g, p, run, i);
    const dsl::OpNode& op = g.ops[size_t(i)];
    const dsl::OpNode& head = g.ops[size_t(op.epilogue.empty() ? op.fused_into : i)];
    for (int k : head.epilogue)
        if (stored(g, p, k))
            if (const std::string why = abnormal(g, p, run, k); !why.empty()) return "its fusion group's " + why;
    return "";
}

bool is_mixed_compute(const dsl::TaskGraph& elaborated, int origin) {
    const dsl::OpNode& op = elaborated.ops[size_t(origin)];
    return op.precision == "mixed" && !op.explicit_dtype && op.kind != dsl::OpKind::Cast;
}

PrecisionSwitch describe(const dsl::TaskGraph& elaborated, int origin, const std::string& reason) {
    const dsl::OpNode& op = elaborated.ops[size_t(origin)];
    PrecisionSwitch s;
    s.op = origin;
    s.name = elaborated.tensors[size_t(op.output)].name;
    s.kind = dsl::op_kind_name(op.kind);
    s.where = dsl::file_line_col(op.loc);
    s.reason = reason;
    return s;
}

}  // namespace

int lowered_op(const dsl::TaskGraph& lowered, const dsl::TaskGraph& elaborated, int origin) {
    for (size_t i = 0; i < lowered.ops.size(); ++i)
        if (lowered.ops[i].origin == origin && lowered.ops[i].kind == elaborated.ops[size_t(origin)].kind)
            return int(i);
    return -1;
}

std::vector<int> switch_ops(const dsl::TaskGraph& lowered, const dsl::TaskGraph& elaborated, int origin) {
    const int self = lowered_op(lowered, elaborated, origin);
    if (self < 0) return {};
    std::vector<int> out{self};
    const dsl::OpNode& op = lowered.ops[size_t(self)];
    for (size_t i = 0; i < lowered.ops.size(); ++i) {
        const dsl::OpNode& c = lowered.ops[i];
        if (c.origin >= 0 || c.kind != dsl::OpKind::Cast) continue;
        const bool feeds = std::find(op.inputs.begin(), op.inputs.end(), c.output) != op.inputs.end();
        // A cast shared with other readers is not this op's alone: counted only when this op is its sole reader.
        bool sole = feeds;
        for (const dsl::OpNode& r : lowered.ops)
            if (&r != &op && std::find(r.inputs.begin(), r.inputs.end(), c.output) != r.inputs.end()) sole = false;
        if (sole || c.inputs[0] == op.output) out.push_back(int(i));
    }
    return out;
}

PrecisionPlan plan_precision(const dsl::TaskGraph& elaborated, const arch::Config& c, const std::string& source,
                             const std::map<int, func::HostTensor>& inputs,
                             const std::function<void(arch::Program&)>& prepare) {
    PrecisionPlan plan;
    plan.graph = elaborated;
    std::set<int> switched, kept;
    const std::vector<dsl::OpNode>& ops = elaborated.ops;
    std::vector<int> last_switched;  // the ops switched by the previous round
    for (plan.rounds = 1;; ++plan.rounds) {
        const dsl::PassedGraph passed = dsl::run_graph_passes(plan.graph);
        plan.lowered = passed.graph();
        try {
            plan.program = dsl::lower(passed, c, source);
        } catch (const dsl::CompileError& e) {
            // The program as written compiles (round 1 rethrows); a float32
            // form that does not fit the hardware is undone and kept float16.
            if (last_switched.empty()) throw;
            for (int o : last_switched) {
                plan.graph.ops[size_t(o)].precision = ops[size_t(o)].precision;
                kept.insert(o);
                auto it = std::find_if(plan.switches.begin(), plan.switches.end(),
                                       [&](const PrecisionSwitch& s) { return s.op == o; });
                it->reason += "; its float32 form does not compile: " + e.message();
                plan.kept.push_back(*it);
                plan.switches.erase(it);
            }
            last_switched.clear();
            --plan.rounds;
            continue;
        }
        last_switched.clear();
        if (prepare) prepare(plan.program);
        plan.run = run_functional(c, plan.program, inputs);
        func::Executor& run = *plan.run;
        bool changed = false;
        // Undo the switches float32 did not cure.
        for (auto it = plan.switches.begin(); it != plan.switches.end();) {
            const int i = lowered_op(plan.lowered, elaborated, it->op);
            const std::string still = i >= 0 ? still_abnormal(plan.lowered, plan.program, run, i) : "";
            if (still.empty()) {
                ++it;
                continue;
            }
            plan.graph.ops[size_t(it->op)].precision = ops[size_t(it->op)].precision;
            it->reason += "; " + still + " too";
            kept.insert(it->op);
            plan.kept.push_back(*it);
            it = plan.switches.erase(it);
            changed = true;
        }
        // New abnormal results: of a mixed op itself, or of the cast the
        // precision pass put in front of one (that op then reads float32).
        for (size_t i = 0; i < plan.lowered.ops.size(); ++i) {
            const dsl::OpNode& op = plan.lowered.ops[i];
            if (plan.lowered.tensors[size_t(op.output)].dtype != arch::DType::Float16) continue;
            std::vector<int> candidates;
            if (op.origin >= 0 && is_mixed_compute(elaborated, op.origin) && op.kind == ops[size_t(op.origin)].kind) {
                candidates.push_back(op.origin);
            } else if (op.origin < 0 && op.kind == dsl::OpKind::Cast) {
                for (const dsl::OpNode& reader : plan.lowered.ops)
                    for (int in : reader.inputs)
                        if (in == op.output && reader.origin >= 0 && is_mixed_compute(elaborated, reader.origin))
                            candidates.push_back(reader.origin);
            }
            candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                            [&](int o) { return switched.count(o) || kept.count(o); }),
                             candidates.end());
            if (candidates.empty()) continue;
            const std::string why = abnormal(plan.lowered, plan.program, run, int(i));
            if (why.empty()) continue;
            for (int o : candidates) {
                if (switched.count(o)) continue;
                switched.insert(o);
                last_switched.push_back(o);
                plan.graph.ops[size_t(o)].precision = "float32";
                plan.switches.push_back(
                    describe(elaborated, o, op.origin < 0 ? "its float16 input cast: " + why : why));
                changed = true;
            }
        }
        if (!changed) break;
        // The plan before any switch is kept for timing its cost; the next
        // round compiles a new one (the executor is done with this one).
        if (plan.rounds == 1) plan.float16_program = std::move(plan.program), plan.float16_lowered = plan.lowered;
    }
    return plan;
}

bool time_in_child(const arch::Config& c, const arch::Program& p, PlanTiming& out) {
    int fds[2];
    if (::pipe(fds) != 0) return false;
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]), ::close(fds[1]);
        return false;
    }
    if (pid == 0) {
        ::close(fds[0]);
        std::vector<uint64_t> words;
        try {
            trace::OpStatsRecorder ops(p, c);
            const trace::RunStats stats = hw::simulate(c, p, &ops);
            words.push_back(stats.total_cycles);
            for (const trace::OpStats& o : ops.ops()) words.push_back(o.ran() ? o.end - o.start : 0);
        } catch (...) {
            ::_exit(1);
        }
        const char* b = reinterpret_cast<const char*>(words.data());
        size_t left = words.size() * sizeof(uint64_t);
        while (left > 0) {
            const ssize_t w = ::write(fds[1], b, left);
            if (w <= 0) ::_exit(1);
            b += w, left -= size_t(w);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::vector<uint64_t> words;
    uint64_t word;
    for (;;) {
        size_t got = 0;
        char* b = reinterpret_cast<char*>(&word);
        while (got < sizeof word) {
            const ssize_t r = ::read(fds[0], b + got, sizeof word - got);
            if (r <= 0) break;
            got += size_t(r);
        }
        if (got < sizeof word) break;
        words.push_back(word);
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || words.empty()) return false;
    out.total = words[0];
    out.op_cycles.assign(words.begin() + 1, words.end());
    return true;
}

}  // namespace cli
