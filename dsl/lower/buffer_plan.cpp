#include "dsl/lower/buffer_plan.h"

#include <algorithm>
#include <iterator>
#include <map>

#include "dsl/lower/lower_views.h"
#include "dsl/lower/placement_mismatch.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

constexpr uint64_t kAlignment = 64;

uint64_t align(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

std::string where(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

// The temp_cache scope op `i` is in (the innermost: the last one opened
// that contains it), or nullptr.
const CacheScope* scope_of(const TaskGraph& g, int i) {
    const CacheScope* in = nullptr;
    for (const CacheScope& c : g.temp_caches)
        if (c.first_op <= i && i < c.end_op && (!in || c.first_op >= in->first_op)) in = &c;
    return in;
}

// First fit of `o` beside the placed tensors (`placed`: indices into
// `all`) whose lifetimes overlap its own, in L1's region or the UBs': the
// lowest 64-byte aligned offset clear of them. `live` gets those tensors,
// by offset, for the message when it does not fit.
template <class T>
uint64_t first_fit(const std::vector<T>& all, const std::vector<size_t>& placed, const T& o,
                   std::vector<const T*>& live) {
    live.clear();
    for (size_t j : placed)
        if (all[j].first_op <= o.last_op && o.first_op <= all[j].last_op) live.push_back(&all[j]);
    std::sort(live.begin(), live.end(), [](const T* a, const T* b) { return a->offset < b->offset; });
    uint64_t offset = 0;
    for (const T* l : live)
        if (offset + o.bytes > l->offset && l->offset + l->bytes > offset)
            offset = align(l->offset + l->bytes, kAlignment);
    return offset;
}

// "'a' (64 B), 'b' (128 B)" for the live tensors; `together` gets their
// bytes added.
template <class T>
std::string live_names(const TaskGraph& g, const std::vector<const T*>& live, uint64_t& together) {
    std::string names;
    for (const T* l : live) {
        together += l->bytes;
        names += (names.empty() ? "'" : ", '") + g.tensors[size_t(l->tensor)].name + "' (" + std::to_string(l->bytes) +
                 " B)";
    }
    return names;
}

}  // namespace

uint64_t tensor_bytes(const TensorNode& t) {
    uint64_t n = uint64_t(arch::dtype_bytes(t.dtype));
    for (int64_t d : t.shape) n *= uint64_t(d);
    return n;
}

int64_t tensor_rows(const TensorNode& t) {
    int64_t rows = 1;
    for (size_t k = 0; k + 1 < t.shape.size(); ++k) rows *= t.shape[k];
    return rows;
}

uint64_t BufferPlan::l1_addr(int tensor) const {
    const OnChipTensor& t = tensors[size_t(index_of[size_t(tensor)])];
    return l1_bytes - region + t.offset;
}

uint64_t BufferPlan::l1_at(int tensor, uint64_t offset) const {
    const OnChipTensor& t = of(tensor);
    return l1_addr(tensor) + (t.band_bytes ? offset % t.band_bytes : offset);
}

UbBands ub_bands(int64_t rows, int64_t clusters, int64_t units, int32_t first_cluster) {
    UbBands b;
    b.cluster_rows = (rows + clusters - 1) / clusters;
    b.unit_rows = (b.cluster_rows + units - 1) / units;
    b.first_cluster = first_cluster;
    b.clusters = (rows + b.cluster_rows - 1) / b.cluster_rows;
    return b;
}

uint64_t BufferPlan::ub_addr(int tensor) const { return ub_bytes - ub_region + ub_of(tensor).offset; }

uint64_t BufferPlan::ub_at(int tensor, uint64_t offset) const {
    const UbTensor& t = ub_of(tensor);
    const uint64_t in_cluster = offset % (uint64_t(t.bands.cluster_rows) * t.row_bytes);
    return ub_addr(tensor) + in_cluster % (uint64_t(t.bands.unit_rows) * t.row_bytes);
}

namespace {

// Who held each byte of a cluster's UB region last: [begin, end) -> the
// tensor, whose last use is the latest of the range's holders (a tensor
// placed over bytes is born after their holders died, so it is used
// later than all of them).
class UbHolders {
public:
    struct Held {
        uint64_t end;
        const UbTensor* by;
    };
    // The latest last use among [b, e)'s holders, -1 if none.
    int last_use(uint64_t b, uint64_t e) const {
        int last = -1;
        for (auto it = first_overlapping(b); it != held_.end() && it->first < e; ++it)
            last = std::max(last, it->second.by->last_op);
        return last;
    }
    // [b, e) is `t`'s from now on; `previous` gets the holders it replaces.
    void take(uint64_t b, uint64_t e, const UbTensor* t, std::vector<int>& previous) {
        std::vector<std::pair<uint64_t, Held>> kept;
        for (auto it = first_overlapping(b); it != held_.end() && it->first < e;) {
            previous.push_back(it->second.by->tensor);
            if (it->first < b) kept.push_back({it->first, {b, it->second.by}});
            if (it->second.end > e) kept.push_back({e, it->second});
            it = held_.erase(it);
        }
        for (const auto& k : kept) held_.emplace(k.first, k.second);
        held_.emplace(b, Held{e, t});
    }

private:
    std::map<uint64_t, Held>::const_iterator first_overlapping(uint64_t b) const {
        auto it = held_.upper_bound(b);
        if (it != held_.begin() && std::prev(it)->second.end > b) --it;
        return it;
    }
    std::map<uint64_t, Held> held_;
};

}  // namespace

void plan_ub_tensors(BufferPlan& plan, const TaskGraph& g, const arch::Config& c, const std::vector<bool>& in_ub,
                     const UbStrands& strands, const std::vector<int>& first_at, const std::vector<int>& last_at) {
    plan.ub_bytes = uint64_t(c.ub_bytes());
    plan.ub_clusters = strands.clusters, plan.ub_units = c.vector_units;
    plan.ub_index_of.assign(g.tensors.size(), -1);
    std::vector<int> last_read(g.tensors.size(), -1);
    for (size_t i = 0; i < g.ops.size(); ++i)
        for (int in : g.ops[i].inputs) last_read[size_t(in)] = std::max(last_read[size_t(in)], last_at[i]);
    for (size_t t = 0; t < g.tensors.size() && t < in_ub.size(); ++t) {
        if (!in_ub[t]) continue;
        const TensorNode& n = g.tensors[t];
        UbTensor u;
        u.tensor = int(t);
        u.row_bytes = uint64_t(n.shape.back() * arch::dtype_bytes(n.dtype));
        const int s = strands.of[t];
        u.bands = s >= 0 ? ub_bands(tensor_rows(n), strands.share, c.vector_units, strands.first_cluster(s))
                         : ub_bands(tensor_rows(n), strands.clusters, c.vector_units);
        u.bytes = uint64_t(u.bands.unit_rows) * u.row_bytes;
        u.first_op = first_at[size_t(n.producer)];
        u.last_op = std::max(last_at[size_t(n.producer)], last_read[t]);
        plan.ub_index_of[t] = int(plan.ub_tensors.size());
        plan.ub_tensors.push_back(u);
    }
    // In order of first use, below the UB's last KiB: first fit sizes the
    // region, then each tensor takes its offset in it.
    std::vector<size_t> order(plan.ub_tensors.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return plan.ub_tensors[a].first_op < plan.ub_tensors[b].first_op; });
    const uint64_t room = plan.ub_bytes > 1024 ? plan.ub_bytes - 1024 : 0;
    std::vector<size_t> placed;  // those that may still be live, by first use
    std::vector<size_t> beside;  // of them, those on a cluster of the tensor being placed
    std::vector<const UbTensor*> live;
    // Keeps in `placed` only the tensors live at or after `k`'s birth, and
    // in `beside` those of them that share a cluster with it (a strand's
    // tensors and another's on other clusters may take the same bytes).
    auto live_beside = [&](size_t k) {
        const UbTensor& o = plan.ub_tensors[k];
        placed.erase(std::remove_if(placed.begin(), placed.end(),
                                    [&](size_t j) { return plan.ub_tensors[j].last_op < o.first_op; }),
                     placed.end());
        beside.clear();
        for (size_t j : placed) {
            const UbBands &a = plan.ub_tensors[j].bands, &b = o.bands;
            if (a.first_cluster < b.first_cluster + b.clusters && b.first_cluster < a.first_cluster + a.clusters)
                beside.push_back(j);
        }
    };
    uint64_t first_fit_end = 0;
    for (size_t k : order) {
        UbTensor& o = plan.ub_tensors[k];
        live_beside(k);
        const uint64_t offset = first_fit(plan.ub_tensors, beside, o, live);
        if (offset + o.bytes > room) {
            uint64_t together = o.bytes;
            const std::string names = live_names(g, live, together);
            throw PlacementMismatch{
                o.tensor, "a vector unit's band of its rows" +
                              (names.empty() ? "" : " with " + names + " in the Unified Buffer at the same time") +
                              " needs " + std::to_string(together) + " bytes, of the " + std::to_string(room) +
                              " that tensors may take of the unit's " + std::to_string(plan.ub_bytes) +
                              " (the last KiB is the streams')"};
        }
        o.offset = offset;
        first_fit_end = std::max(first_fit_end, offset + o.bytes);
        placed.push_back(k);
    }
    plan.ub_region = align(first_fit_end, 1024);
    // Where first fit left room, the least recently used fit; where it
    // finds none in the region (another arrangement of the same tensors
    // may fragment it), first fit stands for every tensor.
    std::vector<uint64_t> first_fit_offsets;
    for (const UbTensor& o : plan.ub_tensors) first_fit_offsets.push_back(o.offset);
    std::vector<UbHolders> holders;
    // `p` takes its bytes on each of its clusters.
    auto hold = [&](size_t k) {
        UbTensor& p = plan.ub_tensors[k];
        const int64_t first = p.bands.first_cluster, n = p.bands.clusters;
        for (int64_t q = first; q < first + n; ++q)
            holders[size_t(q)].take(p.offset, p.offset + p.bytes, &p, p.previous);
    };
    auto last_use = [&](size_t k, uint64_t at) {
        const UbTensor& p = plan.ub_tensors[k];
        const int64_t first = p.bands.first_cluster, n = p.bands.clusters;
        int last = -1;
        for (int64_t q = first; q < first + n; ++q)
            last = std::max(last, holders[size_t(q)].last_use(at, at + p.bytes));
        return last;
    };
    holders.assign(size_t(strands.clusters), UbHolders());
    placed.clear();
    bool fits = true;
    for (size_t k : order) {
        UbTensor& o = plan.ub_tensors[k];
        live_beside(k);
        std::vector<uint64_t> offsets{0};
        for (size_t j : beside)
            offsets.push_back(align(plan.ub_tensors[j].offset + plan.ub_tensors[j].bytes, kAlignment));
        int best = 0;
        fits = false;
        for (uint64_t at : offsets) {
            const bool clear =
                at + o.bytes <= plan.ub_region && std::none_of(beside.begin(), beside.end(), [&](size_t j) {
                    const UbTensor& l = plan.ub_tensors[j];
                    return at < l.offset + l.bytes && l.offset < at + o.bytes;
                });
            if (!clear) continue;
            const int last = last_use(k, at);
            if (!fits || last < best || (last == best && at < o.offset)) fits = true, best = last, o.offset = at;
        }
        if (!fits) break;
        hold(k);
        placed.push_back(k);
    }
    if (!fits) {
        holders.assign(size_t(strands.clusters), UbHolders());
        for (size_t k : order) {
            UbTensor& o = plan.ub_tensors[k];
            o.offset = first_fit_offsets[k];
            o.previous.clear();
            hold(k);
        }
    }
    for (UbTensor& o : plan.ub_tensors) {
        std::sort(o.previous.begin(), o.previous.end());
        o.previous.erase(std::unique(o.previous.begin(), o.previous.end()), o.previous.end());
    }
}

BufferPlan plan_buffers(const TaskGraph& g, const arch::Config& c, const std::vector<bool>& in_ddr, int64_t bands,
                        int64_t granule) {
    // A slide view has no bytes of its own to plan: refuse the readers that
    // would take the image's bytes for its patches, before any is placed.
    check_slide_views(g);
    check_slice_views(g);
    BufferPlan plan;
    plan.l1_bytes = uint64_t(c.l1_bytes());
    plan.index_of.assign(g.tensors.size(), -1);
    const int last = int(g.ops.size()) - 1;
    // The last operation reading each tensor's bytes, directly or through
    // views (a slice, reshape or update of it reads or writes its bytes).
    std::vector<int> last_read(g.tensors.size(), -1);
    for (size_t i = 0; i < g.ops.size(); ++i)
        for (int in : g.ops[i].inputs)
            for (int t = in;;) {
                last_read[size_t(t)] = int(i);
                const int p = g.tensors[size_t(t)].producer;
                if (p < 0 || !is_view_kind(g.ops[size_t(p)].kind)) break;
                t = g.ops[size_t(p)].inputs[0];
            }
    for (size_t t = 0; t < g.tensors.size(); ++t) {
        const TensorNode& n = g.tensors[t];
        if (n.placement == Placement::DDR || (t < in_ddr.size() && in_ddr[t])) continue;
        if (n.producer < 0) continue;  // a buffer nothing copies into: unused
        if (n.role == TensorRole::Output)
            throw CompileError(n.loc, "tensor '" + n.name + "' is a program output: it must be in DDR, not " +
                                          placement_name(n.placement));
        OnChipTensor o;
        o.tensor = int(t);
        o.bytes = tensor_bytes(n);
        o.first_op = n.producer;
        o.last_op = last;
        if (const CacheScope* s = scope_of(g, n.producer)) o.last_op = s->end_op - 1;
        // A result is freed after its last reader (a compiler's liveness):
        // a loop-carried value, such as an online softmax's running maximum,
        // can then stay on chip without a temp_cache scope ending under it.
        // A buffer lives as long as the program said: it is the program's
        // own allocation.
        const bool buffer = g.ops[size_t(n.producer)].kind == OpKind::Move;
        if (!buffer) o.last_op = std::min(o.last_op, std::max(last_read[t], n.producer));
        if (!buffer && bands > 1 && !n.shape.empty()) {
            const int64_t cols = n.shape.back(), rows = tensor_rows(n);
            const int64_t g_rows = std::max<int64_t>(granule, 1);
            o.band_rows = ((rows + bands - 1) / bands + g_rows - 1) / g_rows * g_rows;
            o.band_bytes = uint64_t(o.band_rows * cols * arch::dtype_bytes(n.dtype));
            o.bytes = o.band_bytes;
        }
        if (g.ops[size_t(n.producer)].kind == OpKind::Move)
            for (const OpNode& op : g.ops)
                if (op.kind == OpKind::Matmul &&
                    std::find(op.inputs.begin(), op.inputs.end(), int(t)) != op.inputs.end())
                    o.replicated = true;
        plan.index_of[t] = int(plan.tensors.size());
        plan.tensors.push_back(o);
    }
    // A reader after the scope's end would read freed memory.
    for (size_t i = 0; i < g.ops.size(); ++i)
        for (int in : g.ops[i].inputs)
            if (plan.on_chip(in) && int(i) > plan.tensors[size_t(plan.index_of[size_t(in)])].last_op) {
                const TensorNode& n = g.tensors[size_t(in)];
                const CacheScope* s = scope_of(g, n.producer);
                throw CompileError(g.ops[i].loc, "tensor '" + n.name + "' in " + placement_name(n.placement) +
                                                     " was freed at the end of temp_cache scope '" + s->name + "' (" +
                                                     where(s->loc) + ")");
            }

    // First fit, in order of first use.
    std::vector<size_t> placed;
    std::vector<const OnChipTensor*> live;
    for (size_t k = 0; k < plan.tensors.size(); ++k) {
        OnChipTensor& o = plan.tensors[k];
        const uint64_t offset = first_fit(plan.tensors, placed, o, live);
        // It cannot help when it does not fit: the tensor stays in DDR,
        // said in a note (dsl/lower/placement_mismatch.h).
        if (offset + o.bytes > plan.l1_bytes) {
            uint64_t together = o.bytes;
            const std::string names = live_names(g, live, together);
            const std::string have = " bytes, a cluster's L1 has " + std::to_string(plan.l1_bytes);
            // One tensor alone too large: "on chip at the same time" would misread.
            if (live.empty()) throw PlacementMismatch{o.tensor, "it needs " + std::to_string(o.bytes) + have, true};
            throw PlacementMismatch{
                o.tensor, "with " + names + " on chip at the same time it needs " + std::to_string(together) + have,
                true};
        }
        o.offset = offset;
        plan.region = std::max(plan.region, offset + o.bytes);
        placed.push_back(k);
    }
    plan.region = align(plan.region, 1024);
    return plan;
}

}  // namespace dsl
