#include "dsl/lower/ddr_footprint.h"

#include <algorithm>

#include "sim/arch/ddr_region.h"

namespace dsl {

namespace {}  // namespace

void merge(SpanList& spans) {
    std::sort(spans.begin(), spans.end(), [](const ByteSpan& x, const ByteSpan& y) { return x.begin < y.begin; });
    size_t out = 0;
    for (const ByteSpan& s : spans) {
        if (s.begin == s.end) continue;
        if (out > 0 && s.begin <= spans[out - 1].end) spans[out - 1].end = std::max(spans[out - 1].end, s.end);
        else spans[out++] = s;
    }
    spans.resize(out);
}

namespace {

ByteSpan span_of(const arch::DmaArgs& d) {
    arch::DdrRegion r = arch::ddr_side_region(d);
    if (r.gathered) r = arch::gather_table(d);
    return {r.addr, r.addr + r.extent()};
}

}  // namespace

DdrFootprint ddr_footprint(const arch::Block& b) {
    DdrFootprint f;
    for (const arch::Stream& s : b.streams)
        for (const arch::Command& c : s.commands) {
            if (c.op != arch::Opcode::Dma) continue;
            if (c.dma.src == arch::Space::DDR) f.reads.push_back(span_of(c.dma));
            else if (c.dma.dst == arch::Space::DDR) f.writes.push_back(span_of(c.dma));
        }
    merge(f.reads);
    merge(f.writes);
    return f;
}

bool overlap(const SpanList& a, const SpanList& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].end <= b[j].begin) ++i;
        else if (b[j].end <= a[i].begin) ++j;
        else return true;
    }
    return false;
}

}  // namespace dsl
