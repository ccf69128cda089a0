// Races between blocks in DDR: two blocks that touch the same DDR byte, one
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

namespace testraces {

struct Touch {
    uint64_t begin, end;  // DDR bytes [begin, end)
    uint32_t block;
    bool write;
};

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
            return "blocks " + std::to_string(std::min(w.block, t.block)) + " ('" +
                   p.blocks[std::min(w.block, t.block)].name + "') and " + std::to_string(std::max(w.block, t.block)) +
                   " ('" + p.blocks[std::max(w.block, t.block)].name + "') both touch DDR bytes from " +
                   std::to_string(std::max(w.begin, t.begin)) + ", block " + std::to_string(w.block) +
                   " writing them, and neither waits for the other";
        }
    }
    return "";
}

}  // namespace testraces
