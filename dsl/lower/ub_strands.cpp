#include "dsl/lower/ub_strands.h"

#include <algorithm>
#include <numeric>

#include "dsl/lower/lower_views.h"

namespace dsl {

namespace {

int find_root(std::vector<int>& parent, int x) {
    while (parent[size_t(x)] != x) x = parent[size_t(x)] = parent[size_t(parent[size_t(x)])];
    return x;
}

// What a tensor's value depends on of the strands: none (-1), one strand,
// or several (kSeveral).
constexpr int kSeveral = -2;
int merged(int a, int b) { return a == -1 ? b : b == -1 || a == b ? a : kSeveral; }

}  // namespace

UbStrands find_ub_strands(const TaskGraph& g, const std::vector<bool>& in_ub, int64_t clusters) {
    UbStrands s;
    s.of.assign(g.tensors.size(), -1);
    s.clusters = s.share = std::max<int64_t>(clusters, 1);
    auto kept = [&](int t) { return t >= 0 && size_t(t) < in_ub.size() && in_ub[size_t(t)]; };
    // A program's input or weight (or a view of one) is read by every
    // strand and belongs to none.
    auto own = [&](int t) {
        const int source = view_source(g, t);
        return g.tensors[size_t(source >= 0 ? source : t)].producer >= 0;
    };
    // The tensors each lowered group (a head and the operations fused
    // into it) reads and writes.
    std::vector<std::vector<int>> uses(g.ops.size());
    for (size_t i = 0; i < g.ops.size(); ++i) {
        const OpNode& op = g.ops[i];
        std::vector<int>& u = uses[size_t(op.fused_into >= 0 ? op.fused_into : int(i))];
        u.insert(u.end(), op.inputs.begin(), op.inputs.end());
        u.push_back(op.output);
    }
    std::vector<int> parent(g.tensors.size());
    std::iota(parent.begin(), parent.end(), 0);
    std::vector<bool> member(g.tensors.size(), false);
    for (const std::vector<int>& u : uses) {
        if (std::none_of(u.begin(), u.end(), kept)) continue;
        int first = -1;
        for (int t : u) {
            if (!own(t)) continue;
            member[size_t(t)] = true;
            if (first < 0) first = t;
            parent[size_t(find_root(parent, t))] = find_root(parent, first);
        }
    }
    // Numbered in the order the program first uses them.
    std::vector<int> number(g.tensors.size(), -1);
    for (const OpNode& op : g.ops) {
        std::vector<int> ts = op.inputs;
        ts.push_back(op.output);
        for (int t : ts) {
            if (!member[size_t(t)]) continue;
            int& n = number[size_t(find_root(parent, t))];
            if (n < 0) n = s.count++;
            s.of[size_t(t)] = n;
        }
    }
    if (s.count < 2) return s;
    // Independent when no operation of a strand reads a value computed
    // from another strand's (ops are in program order, a topological one).
    std::vector<int> reach(g.tensors.size(), -1);
    for (const OpNode& op : g.ops) {
        const int mine = s.of[size_t(op.output)];
        int r = mine;
        for (int in : op.inputs) {
            if (mine >= 0 && (reach[size_t(in)] == kSeveral || (reach[size_t(in)] >= 0 && reach[size_t(in)] != mine)))
                return s;
            r = merged(r, reach[size_t(in)]);
        }
        reach[size_t(op.output)] = r;
    }
    s.share = std::max<int64_t>(1, s.clusters / s.count);
    return s;
}

}  // namespace dsl
