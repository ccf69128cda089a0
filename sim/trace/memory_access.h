// The on-chip bytes (L1 and L0) a command reads and writes, from its
// arguments alone (sim/arch/program.h; the same footprints program_check
// verifies against the capacities):
//
// * DMA: the source and the destination in L1/L0 (a DDR side is not listed),
//   row by row: `rows` rows of `row_bytes` at `addr + r * stride`, not the
//   span the stride covers. A float32->float16 write-back reads rows of
//   2 x row_bytes (the accumulator). im2col reads its whole slab
//   (channels x height x width elements, contiguous); pixel_shuffle reads
//   rows x row_bytes contiguous; transpose writes row_bytes / e rows of
//   rows x e bytes, dst_stride apart.
// * VECTOR: reads src0 (src1 for binary ops, src1 and src2 for select),
//   src_bytes() each; writes dst_bytes() at dst. All in L1.
// * MATMUL: reads A (m x k) and B (k x n) of the operand type, and the
//   float32 C (m x n) when it accumulates; writes C. All in the cube's L0.
//
// Which L1 or L0 is meant follows from where the command ran: L1 is its
// cluster's, L0 the one of the cube whose DMA engine or MAC array ran it.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/arch/program.h"

namespace trace {

struct Region {
    arch::Space space = arch::Space::L1;
    bool write = false;
    uint64_t addr = 0;
    uint64_t row_bytes = 0;
    uint64_t rows = 1;
    uint64_t stride = 0;  // from one row's start to the next; only meaningful when rows > 1
    uint64_t bytes() const { return rows * row_bytes; }
};

// Appends the command's L1, L0 and UB regions to `out`, reads before
// writes; a VECTOR command's are in `vector_space` (UB when the vector units
// have Unified Buffers, arch::Config::vector_buffer). Rows that follow each
// other without a gap are given as one row.
void command_regions(const arch::Command& c, std::vector<Region>& out, arch::Space vector_space = arch::Space::L1);

}  // namespace trace
