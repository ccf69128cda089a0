#include "dsl/lower/cluster_placement.h"

#include <algorithm>
#include <map>

namespace dsl {

namespace {

int64_t last_dim(const TensorNode& t) { return t.shape.empty() ? 1 : t.shape.back(); }

}  // namespace

ClusterPlacement::ClusterPlacement(const TaskGraph& g, const BufferPlan& plan, int32_t clusters)
    : graph_(g), plan_(plan), clusters_(std::max(clusters, 1)) {
    held_.resize(g.tensors.size());
    parts_.resize(g.tensors.size());
    for (const OnChipTensor& t : plan.tensors) {
        held_[size_t(t.tensor)].resize(size_t(clusters_));
        for (ByteSet& h : held_[size_t(t.tensor)]) h.resize(t.bytes);
    }
}

void ClusterPlacement::start_op(int op) {
    op_ = op;
    live_.clear();
    for (const OnChipTensor& t : plan_.tensors)
        if (t.first_op <= op && op <= t.last_op) live_.push_back(t.tensor);
    placed_in_op_.assign(size_t(clusters_), 0);
}

void ClusterPlacement::add(std::vector<Access>& out, uint64_t addr, uint64_t bytes) const {
    // Live tensors never overlap (the plan's first fit), so a byte belongs
    // to at most one of them; anything else is a block's own scratch.
    for (int t : live_) {
        const uint64_t base = plan_.l1_addr(t), size = plan_.tensors[size_t(plan_.index_of[size_t(t)])].bytes;
        const uint64_t b = std::max(addr, base), e = std::min(addr + bytes, base + size);
        if (b >= e) continue;
        // Consecutive bytes of one tensor (the rows of a contiguous copy)
        // make one access: only the set of bytes matters.
        if (!out.empty() && out.back().tensor == t && out.back().end == b - base) out.back().end = e - base;
        else out.push_back({t, b - base, e - base});
    }
}

bool ClusterPlacement::touches_live(uint64_t begin, uint64_t end) const {
    for (int t : live_) {
        const uint64_t base = plan_.l1_addr(t), size = plan_.of(t).bytes;
        if (begin < base + size && base < end) return true;
    }
    return false;
}

void ClusterPlacement::accesses(const arch::Block& b, std::vector<Access>& reads, std::vector<Access>& writes) const {
    const uint64_t region = plan_.l1_bytes - plan_.region;
    for (const arch::Stream& s : b.streams)
        for (const arch::Command& c : s.commands) {
            if (c.op == arch::Opcode::Dma) {
                const arch::DmaArgs& d = c.dma;
                // im2col and rearranged copies address their own staging
                // buffers (convolutions and staged copies use no on-chip tensor).
                if (d.im2col || d.rearrange) continue;
                const uint64_t src_row = d.convert_f32_to_f16 ? 2 * uint64_t(d.row_bytes) : d.row_bytes;
                const uint64_t last = d.rows ? uint64_t(d.rows - 1) : 0;
                const bool src_live =
                    d.src == arch::Space::L1 && touches_live(d.src_addr, d.src_addr + last * d.src_stride + src_row);
                const bool dst_live = d.dst == arch::Space::L1 &&
                                      touches_live(d.dst_addr, d.dst_addr + last * d.dst_stride + d.row_bytes);
                if (!src_live && !dst_live) continue;
                for (uint32_t r = 0; r < d.rows; ++r) {
                    if (d.src == arch::Space::L1 && d.src_addr + r * d.src_stride + src_row > region)
                        add(reads, d.src_addr + r * d.src_stride, src_row);
                    if (d.dst == arch::Space::L1 && d.dst_addr + r * d.dst_stride + d.row_bytes > region)
                        add(writes, d.dst_addr + r * d.dst_stride, d.row_bytes);
                }
            } else if (c.op == arch::Opcode::Vector) {
                const arch::VectorArgs& v = c.vec;
                const uint64_t e = uint64_t(arch::dtype_bytes(v.dtype));
                const uint64_t srcs[2] = {v.src0, v.src1};
                for (int i = 0; i < 2; ++i) {
                    if (srcs[i] == arch::kNoAddress) continue;
                    const arch::VectorSource& src = v.source(i);
                    switch (src.kind) {
                    case arch::VectorSource::Kind::Contiguous:
                        if (srcs[i] + v.src_bytes() > region) add(reads, srcs[i], v.src_bytes());
                        break;
                    case arch::VectorSource::Kind::Strided: {
                        // Skip the element walk when all it can reach is scratch.
                        uint64_t reach = 0;
                        for (size_t k = 0; k < src.dims.size(); ++k)
                            reach += uint64_t(src.dims[k] ? src.dims[k] - 1 : 0) * uint64_t(src.strides[k]);
                        if (srcs[i] + (reach + 1) * e <= region) break;
                        const bool ascending = std::all_of(src.strides.begin(), src.strides.end(),
                                                           [](int64_t stride) { return stride >= 0; });
                        if (ascending && !touches_live(srcs[i], srcs[i] + (reach + 1) * e)) break;
                        // Elements merged into runs of consecutive offsets (a
                        // broadcast reads one offset many times: one access per
                        // element made placement slow).
                        uint64_t run0 = 0, run1 = 0;  // element offsets [run0, run1)
                        for (uint64_t n = 0; n < v.elements(); ++n) {
                            uint64_t rest = n + src.first, off = 0;
                            for (size_t k = src.dims.size(); k-- > 0;) {
                                off += (rest % src.dims[k]) * uint64_t(src.strides[k]);
                                rest /= src.dims[k];
                            }
                            if (run0 <= off && off < run1) continue;
                            if (off == run1 && run1 > run0) {
                                ++run1;
                                continue;
                            }
                            if (run1 > run0) add(reads, srcs[i] + run0 * e, (run1 - run0) * e);
                            run0 = off, run1 = off + 1;
                        }
                        if (run1 > run0) add(reads, srcs[i] + run0 * e, (run1 - run0) * e);
                        break;
                    }
                    default: break;  // a scalar reads no memory; pooling windows read DDR-only tensors
                    }
                }
                if (v.dst != arch::kNoAddress && v.dst + v.dst_bytes() > region) add(writes, v.dst, v.dst_bytes());
            }
        }
}

void ClusterPlacement::ByteSet::set(uint64_t b, uint64_t e) {
    for (; b < e && b % 64; ++b) words[size_t(b / 64)] |= uint64_t(1) << (b % 64);
    for (; b + 64 <= e; b += 64) words[size_t(b / 64)] = ~uint64_t(0);
    for (; b < e; ++b) words[size_t(b / 64)] |= uint64_t(1) << (b % 64);
}

bool ClusterPlacement::ByteSet::all(uint64_t b, uint64_t e, const ByteSet& also) const {
    while (b < e) {
        const size_t w = size_t(b / 64);
        const uint64_t lo = b % 64, hi = std::min<uint64_t>(64, e - uint64_t(w) * 64);
        const uint64_t mask = (hi == 64 ? ~uint64_t(0) : (uint64_t(1) << hi) - 1) & ~((uint64_t(1) << lo) - 1);
        const uint64_t have = words[w] | (also.empty() ? 0 : also.words[w]);
        if ((have & mask) != mask) return false;
        b = uint64_t(w + 1) * 64;
    }
    return true;
}

bool ClusterPlacement::holds(int32_t cluster, const Access& a) const {
    return held_[size_t(a.tensor)][size_t(cluster)].all(a.begin, a.end, ByteSet{});
}

bool ClusterPlacement::everywhere(int tensor) const {
    // A band lives on its own cluster alone.
    if (plan_.band_rows(tensor) > 0) return false;
    const uint64_t bytes = plan_.of(tensor).bytes;
    for (const ByteSet& h : held_[size_t(tensor)])
        if (!h.all(0, bytes, ByteSet{})) return false;
    return true;
}

int32_t ClusterPlacement::place(const arch::Block& b, int32_t pin) {
    std::vector<Access>& reads = reads_;
    std::vector<Access>& writes = writes_;
    reads.clear();
    writes.clear();
    accesses(b, reads, writes);
    // The bytes of a tensor kept in bands are at the same offsets in every
    // cluster, one band in each: only the lowering knows which band a block
    // touches, and it pins the block there.
    if (pin < 0)
        for (const std::vector<Access>* list : {&reads, &writes})
            for (const Access& a : *list)
                if (plan_.band_rows(a.tensor) > 0)
                    throw PlacementMismatch{a.tensor, "block '" + b.name + "' of " +
                                                          op_kind_name(graph_.ops[size_t(op_)].kind) +
                                                          " uses it, kept in bands of rows, without following them"};
    // What the block writes it may read back (an operation computing in
    // place in its on-chip result): those reads need no cluster.
    // (Per tensor written, by tensor: a block writes a few of them, and a
    // vector over all the program's tensors per block made placement
    // quadratic in the program's length.)
    std::map<int, ByteSet> own;
    for (const Access& w : writes) {
        ByteSet& o = own[w.tensor];
        if (o.empty()) o.resize(plan_.of(w.tensor).bytes);
        o.set(w.begin, w.end);
    }
    const ByteSet none;
    std::vector<bool> can(size_t(clusters_), true);
    int missing = -1;
    for (const Access& r : reads) {
        const auto written = own.find(r.tensor);
        const ByteSet& o = written == own.end() ? none : written->second;
        for (int32_t k = 0; k < clusters_; ++k)
            if (can[size_t(k)] && !held_[size_t(r.tensor)][size_t(k)].all(r.begin, r.end, o)) can[size_t(k)] = false;
        if (missing < 0 && std::find(can.begin(), can.end(), true) == can.end()) missing = r.tensor;
    }
    const auto mismatch = [&](int tensor) {
        const TensorNode& t = graph_.tensors[size_t(tensor)];
        return PlacementMismatch{
            tensor, "block '" + b.name + "' of " + op_kind_name(graph_.ops[size_t(op_)].kind) + " reads parts of '" +
                        t.name + "' that " +
                        (pin >= 0 ? "cluster " + std::to_string(pin) + " does not hold" : "no one cluster holds") +
                        " (its producer's blocks are decomposed differently)"};
    };
    if (missing >= 0) throw mismatch(missing);
    int32_t cluster = pin;
    if (pin >= 0) {
        if (!can[size_t(pin)]) {
            for (const Access& r : reads)
                if (!holds(pin, r)) throw mismatch(r.tensor);
        }
    } else {
        if (writes.empty() && std::find(can.begin(), can.end(), false) == can.end()) return arch::Block::kAnyCluster;
        for (int32_t k = 0; k < clusters_; ++k)
            if (can[size_t(k)] && (cluster < 0 || placed_in_op_[size_t(k)] < placed_in_op_[size_t(cluster)]))
                cluster = k;
    }
    ++placed_in_op_[size_t(cluster)];
    // Record the writes, and the rectangle of each tensor they cover: over
    // the union of the block's write ranges per tensor (walking the whole
    // tensor's bytes per block was most of placement's time).
    std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> ranges;
    for (const Access& w : writes) ranges[w.tensor].push_back({w.begin, w.end});
    for (auto& [t, rs] : ranges) {
        std::sort(rs.begin(), rs.end());
        ByteSet& h = held_[size_t(t)][size_t(cluster)];
        const TensorNode& n = graph_.tensors[size_t(t)];
        const uint64_t e = uint64_t(arch::dtype_bytes(n.dtype)), row = uint64_t(last_dim(n)) * e;
        // A band's offsets are its own: the part's rows are the tensor's,
        // its band's (the cluster's) first row on.
        const uint64_t band_start = plan_.band_rows(t) > 0 ? uint64_t(cluster) * plan_.of(t).band_bytes : 0;
        uint64_t r0 = UINT64_MAX, r1 = 0, c0 = UINT64_MAX, c1 = 0, count = 0;
        for (size_t k = 0; k < rs.size();) {
            // One run of the union: [b, end).
            uint64_t b = rs[k].first;
            uint64_t end = rs[k].second;
            for (++k; k < rs.size() && rs[k].first <= end; ++k) end = std::max(end, rs[k].second);
            h.set(b, end);
            b += band_start, end += band_start;
            count += end - b;
            r0 = std::min(r0, b / row), r1 = std::max(r1, (end - 1) / row + 1);
            if ((end - 1) / row == b / row) {
                c0 = std::min(c0, b % row), c1 = std::max(c1, (end - 1) % row + 1);
            } else {  // across a row boundary: the run covers column 0 and the last column
                c0 = 0, c1 = row;
            }
        }
        TensorPart p;
        p.rect = {int64_t(r0), int64_t(r1), int64_t(c0 / e), int64_t((c1 + e - 1) / e)};
        p.cluster = cluster;
        p.exact = count == (r1 - r0) * (c1 - c0) && c0 % e == 0 && c1 % e == 0;
        parts_[size_t(t)].push_back(p);
    }
    return cluster;
}

}  // namespace dsl
