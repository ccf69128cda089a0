// Races between blocks in DDR (and in the bytes kept in the vector units'
// Unified Buffers, below): two blocks that touch the same DDR byte, one
// of them writing it, must be ordered, the later one waiting for the other
// through its dependencies (transitively) or a drain (docs/timing-model.md
// §4). The compiler's dependencies are narrowed to the data each block uses
// (§10, "Block dependencies"); this checks them against every byte each
// block's DMA commands touch, row by row, apart from how the compiler found
// them (both take a command's DDR side from arch::ddr_side_region). The
// functional run cannot: it runs blocks in program order, which hides a
// missing dependency.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/arch/ddr_region.h"
#include "sim/arch/program.h"
#include "sim/arch/vector_source.h"

namespace testraces {

struct Touch {
    uint64_t begin, end;  // DDR bytes [begin, end)
    uint32_t block;
    bool write;
};

// Bytes of the tensors kept in the vector units' Unified Buffers
// (docs/timing-model.md §10) outlive a block too: they are checked as
// bytes of their own, each unit's UB of each cluster at
// kUbBase + (cluster * kMaxUnits + unit) * kUbSpan.
constexpr uint64_t kUbBase = uint64_t(1) << 62, kUbSpan = uint64_t(1) << 32, kMaxUnits = 64;

// The kept UB bytes each VECTOR command of `p` reads or writes (those at or
// above the lowest kept tensor's address), in that space; a block that
// touches them without a cluster of its own, or a DMA that moves them, is
// said in `unpinned`.
inline void ub_touches(const arch::Program& p, std::vector<Touch>& out, std::string& unpinned) {
    uint64_t kept_from = ~uint64_t{0};
    for (const arch::TensorPlacement& t : p.tensors)
        if (t.ub_addr >= 0) kept_from = std::min(kept_from, uint64_t(t.ub_addr));
    if (kept_from == ~uint64_t{0}) return;
    for (uint32_t b = 0; b < p.blocks.size(); ++b)
        for (const arch::Stream& s : p.blocks[b].streams) {
            // No DMA moves kept bytes (the compiler neither loads nor stores
            // a kept tensor): one that reaches them is a layout bug.
            if (s.engine.kind == arch::EngineKind::VectorLoad || s.engine.kind == arch::EngineKind::VectorStore) {
                for (const arch::Command& c : s.commands) {
                    const bool load = s.engine.kind == arch::EngineKind::VectorLoad;
                    const uint64_t at = load ? c.dma.dst_addr : c.dma.src_addr;
                    const uint64_t stride = load ? c.dma.dst_stride : c.dma.src_stride;
                    const uint64_t end = at + (c.dma.rows ? uint64_t(c.dma.rows - 1) * stride : 0) + c.dma.row_bytes;
                    if (end > kept_from && unpinned.empty())
                        unpinned = "block " + std::to_string(b) + " ('" + p.blocks[b].name +
                                   "') moves kept UB bytes (" + std::to_string(at) + " to " + std::to_string(end) +
                                   ") with a DMA";
                }
                continue;
            }
            if (s.engine.kind != arch::EngineKind::Vector) continue;
            for (const arch::Command& c : s.commands) {
                if (c.op != arch::Opcode::Vector) continue;
                const arch::VectorArgs& v = c.vec;
                const uint64_t e = uint64_t(arch::dtype_bytes(v.dtype));
                auto touch = [&](uint64_t addr, uint64_t bytes, bool write) {
                    if (addr == arch::kNoAddress || addr + bytes <= kept_from) return;
                    if (p.blocks[b].cluster == arch::Block::kAnyCluster) {
                        if (unpinned.empty())
                            unpinned = "block " + std::to_string(b) + " ('" + p.blocks[b].name +
                                       "') touches kept UB bytes on no cluster of its own";
                        return;
                    }
                    const uint64_t base =
                        kUbBase + (uint64_t(p.blocks[b].cluster) * kMaxUnits + uint64_t(s.engine.index)) * kUbSpan;
                    out.push_back({base + addr, base + addr + bytes, b, write});
                };
                for (int i = 0; i < arch::vector_op_sources(v.op); ++i)
                    touch(i == 0   ? v.src0
                          : i == 1 ? v.src1
                                   : v.src2,
                          arch::source_elements_reached(v.source(i), v.elements()) * e, false);
                touch(v.dst, v.dst_bytes(), true);
            }
        }
}

// Every row each DDR-side DMA command of `p` touches (a gather: its whole
// table, whose rows the ids choose).
inline std::vector<Touch> ddr_touches(const arch::Program& p) {
    std::vector<Touch> out;
    for (uint32_t b = 0; b < p.blocks.size(); ++b)
        for (const arch::Stream& s : p.blocks[b].streams)
            for (const arch::Command& c : s.commands) {
                if (c.op != arch::Opcode::Dma || (c.dma.src != arch::Space::DDR && c.dma.dst != arch::Space::DDR))
                    continue;
                const bool write = c.dma.dst == arch::Space::DDR;
                const arch::DdrRegion r = arch::ddr_side_region(c.dma);
                if (r.gathered) {
                    const arch::DdrRegion table = arch::gather_table(c.dma);
                    out.push_back({table.addr, table.addr + table.extent(), b, write});
                    continue;
                }
                for (uint64_t row = 0; row < r.rows; ++row)
                    out.push_back({r.addr + row * r.stride, r.addr + row * r.stride + r.row_bytes, b, write});
            }
    return out;
}

// The first race found, described, or "" when every conflicting pair is
// ordered.
inline std::string first_ddr_race(const arch::Program& p) {
    const size_t n = p.blocks.size(), words = (n + 63) / 64;
    // before[b]: the blocks that end before b starts (dependencies point to
    // earlier blocks, so one pass in order closes them).
    std::vector<std::vector<uint64_t>> before(n, std::vector<uint64_t>(words, 0));
    for (size_t b = 0; b < n; ++b) {
        std::vector<uint64_t>& w = before[b];
        for (uint32_t d : p.blocks[b].deps) {
            for (size_t k = 0; k < words; ++k) w[k] |= before[d][k];
            w[d / 64] |= uint64_t{1} << (d % 64);
        }
        for (uint32_t d = 0; d < p.blocks[b].drain; ++d) w[d / 64] |= uint64_t{1} << (d % 64);
    }
    auto ordered = [&](uint32_t x, uint32_t y) {
        const uint32_t lo = std::min(x, y), hi = std::max(x, y);
        return (before[hi][lo / 64] >> (lo % 64)) & 1;
    };
    std::vector<Touch> all = ddr_touches(p), writes;
    std::string unpinned;
    ub_touches(p, all, unpinned);
    if (!unpinned.empty()) return unpinned;
    for (const Touch& t : all)
        if (t.write) writes.push_back(t);
    std::sort(writes.begin(), writes.end(), [](const Touch& a, const Touch& b) { return a.begin < b.begin; });
    // reach[i]: the largest end among writes[0..i], to stop a backward scan.
    std::vector<uint64_t> reach(writes.size());
    for (size_t i = 0; i < writes.size(); ++i) reach[i] = std::max(i ? reach[i - 1] : 0, writes[i].end);
    for (const Touch& t : all) {
        // The writes that begin before t ends, scanned back while one may reach t.
        size_t i = size_t(std::lower_bound(writes.begin(), writes.end(), t.end,
                                           [](const Touch& w, uint64_t e) { return w.begin < e; }) -
                          writes.begin());
        while (i-- > 0 && reach[i] > t.begin) {
            const Touch& w = writes[i];
            if (w.end <= t.begin || w.block == t.block || ordered(w.block, t.block)) continue;
            const uint64_t from = std::max(w.begin, t.begin);
            const std::string where =
                from < kUbBase ? "DDR bytes from " + std::to_string(from)
                               : "kept UB bytes of cluster " + std::to_string((from - kUbBase) / kUbSpan / kMaxUnits) +
                                     "'s vector" + std::to_string((from - kUbBase) / kUbSpan % kMaxUnits) + " from " +
                                     std::to_string((from - kUbBase) % kUbSpan);
            return "blocks " + std::to_string(std::min(w.block, t.block)) + " ('" +
                   p.blocks[std::min(w.block, t.block)].name + "') and " + std::to_string(std::max(w.block, t.block)) +
                   " ('" + p.blocks[std::max(w.block, t.block)].name + "') both touch " + where + ", block " +
                   std::to_string(w.block) + " writing them, and neither waits for the other";
        }
    }
    return "";
}

}  // namespace testraces
