#include "dsl/lower/ddr_workspace.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <tuple>

#include "dsl/lower/buffer_plan.h"

namespace dsl {

namespace {

struct Buffer {
    int root = -1;    // the tensor whose bytes these are
    int holder = -1;  // the latest tensor in them
    int last = -1;    // its last use, as a lowering step
};

}  // namespace

DdrWorkspace plan_ddr_workspace(const TaskGraph& g, const UbStrands& strands, const std::vector<bool>& eligible,
                                const std::vector<int>& first_at, const std::vector<int>& last_at) {
    DdrWorkspace w;
    w.takes.assign(g.tensors.size(), -1);
    w.previous.assign(g.tensors.size(), -1);
    w.reused.assign(g.tensors.size(), false);
    w.buffer.assign(g.tensors.size(), -1);
    std::vector<int> last(g.tensors.size(), -1);
    for (size_t i = 0; i < g.ops.size(); ++i)
        for (int in : g.ops[i].inputs) last[size_t(in)] = std::max(last[size_t(in)], last_at[i]);
    std::vector<int> order;
    // WORKSPACE_BUFFERS = 0: every intermediate keeps bytes of its own.
    for (size_t t = 0; t < g.tensors.size() && g.workspace_buffers > 0; ++t) {
        const TensorNode& n = g.tensors[t];
        if (!eligible[t] || t >= strands.of.size() || strands.of[t] < 0 || n.producer < 0) continue;
        last[t] = std::max(last[t], last_at[size_t(n.producer)]);
        order.push_back(int(t));
    }
    auto first = [&](int t) { return first_at[size_t(g.tensors[size_t(t)].producer)]; };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return first(a) < first(b); });
    // A strand's buffers for the results of one operation of the source
    // (a loop body's, once per step; an operation a pass inserted has its
    // consumer's place, and another kind) of one size in bytes, with their
    // holders' last uses least first (a tie: the older buffer). Of one size
    // only: then a holder whose writer writes all of a buffer has waited for
    // every earlier user (dsl/lower/program/lower.cpp keeps the users since).
    struct Buffers {
        std::vector<Buffer> all;
        std::priority_queue<std::pair<int, size_t>, std::vector<std::pair<int, size_t>>, std::greater<>> by_last;
    };
    using Key = std::tuple<int, const SourceFile*, int, int, int, uint64_t>;
    std::map<Key, Buffers> buffers;
    for (int t : order) {
        const OpNode& producer = g.ops[size_t(g.tensors[size_t(t)].producer)];
        Buffers& mine = buffers[{strands.of[size_t(t)], producer.loc.file.get(), producer.loc.line, producer.loc.col,
                                 int(producer.kind), tensor_bytes(g.tensors[size_t(t)])}];
        // The least recently used, if its holder is dead.
        if (mine.all.size() < size_t(g.workspace_buffers) || mine.by_last.top().first >= first(t)) {
            mine.by_last.push({last[size_t(t)], mine.all.size()});
            mine.all.push_back({t, t, last[size_t(t)]});
            w.buffer[size_t(t)] = t;
            continue;
        }
        const size_t k = mine.by_last.top().second;
        mine.by_last.pop();
        Buffer& lru = mine.all[k];
        w.takes[size_t(t)] = w.buffer[size_t(t)] = lru.root;
        w.previous[size_t(t)] = lru.holder;
        w.reused[size_t(lru.holder)] = true;
        lru.holder = t, lru.last = last[size_t(t)];
        mine.by_last.push({lru.last, k});
    }
    return w;
}

}  // namespace dsl
