// Hand-made runs for the post-run trace computations (sim/trace): commands
// with the cycles they ran at, as the simulator would have recorded them.
#pragma once

#include <deque>
#include <map>
#include <ostream>
#include <tuple>

#include "sim/trace/step_series.h"
#include "sim/trace/timed_commands.h"
#include "tests/support/program_builders.h"

namespace trace {
inline void PrintTo(const Step& s, std::ostream* os) { *os << "{" << s.cycle << ", " << s.value << "}"; }
}  // namespace trace

namespace tracetest {

using namespace testprog;

// Commands in the order they are added; add them block by block (the
// writers' input is sorted by block, engine and position).
struct Timeline {
    std::deque<arch::Command> commands;  // stable addresses
    std::vector<trace::TimedCommand> timed;
    std::map<std::tuple<uint32_t, int, int>, uint32_t> next_index;

    Timeline& at(uint64_t start, uint64_t end, EngineId e, arch::Command c, uint32_t cluster = 0, uint32_t block = 0,
                 uint32_t slot = 0) {
        commands.push_back(std::move(c));
        trace::CommandRecord r;
        r.block = block;
        r.cluster = cluster;
        r.engine = e;
        r.index = next_index[{block, int(e.kind), e.index}]++;
        r.start = start;
        r.end = end;
        r.slot = slot;
        timed.push_back({r, &commands.back()});
        return *this;
    }
};

// A 2D copy: rows of row_bytes, strides in bytes.
inline arch::Command copy(Space src, uint64_t src_addr, Space dst, uint64_t dst_addr, uint32_t rows, uint32_t row_bytes,
                          uint64_t src_stride = 0, uint64_t dst_stride = 0) {
    arch::Command c = dma(src, dst, row_bytes);
    c.dma.src_addr = src_addr;
    c.dma.dst_addr = dst_addr;
    c.dma.rows = rows;
    c.dma.src_stride = src_stride ? src_stride : row_bytes;
    c.dma.dst_stride = dst_stride ? dst_stride : row_bytes;
    return c;
}

// C (float32, m x n) at c_addr (+)= A (m x k) at a_addr * B (k x n) at b_addr, float16.
inline arch::Command mm(uint32_t m, uint32_t k, uint32_t n, uint64_t a_addr, uint64_t b_addr, uint64_t c_addr,
                        bool accumulate) {
    arch::Command c = matmul(m, k, n);
    c.mm.a_addr = a_addr;
    c.mm.b_addr = b_addr;
    c.mm.c_addr = c_addr;
    c.mm.accumulate = accumulate;
    return c;
}

inline arch::Command flagged(arch::Command c, std::vector<FlagId> waits, std::vector<FlagId> sets) {
    c.waits = std::move(waits);
    c.sets = std::move(sets);
    return c;
}

}  // namespace tracetest
