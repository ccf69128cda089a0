// The bytes a DDR<->L1 DMA command touches in DDR, in the order its bursts
// carry them: what the L2 cache looks up (docs/timing-model.md §6.1).
#pragma once

#include <cstdint>

#include "sim/arch/program.h"

namespace arch {

// `rows` rows of `row_bytes` bytes, `stride` apart, from `addr`.
struct DdrRegion {
    uint64_t addr = 0;
    uint64_t rows = 0;
    uint64_t row_bytes = 0;
    uint64_t stride = 0;
    // A gather's rows (DmaArgs::gather): their addresses depend on ids the
    // timing does not see, so addr and stride mean nothing and the L2 times
    // the bytes as misses without looking them up (§6.1).
    bool gathered = false;
    // The bytes from its first row's first byte to its last row's last.
    uint64_t extent() const { return rows == 0 ? 0 : (rows - 1) * stride + row_bytes; }
};

// The DDR side of a DMA command whose source or destination is DDR: its
// source rows (one row of all its bytes for a pixel_shuffle, which reads a
// contiguous source), or its destination rows (row_bytes / e rows of
// rows x e bytes for a transpose, which writes the transpose).
DdrRegion ddr_side_region(const DmaArgs& d);
// A gather's whole table (table_rows rows from src_addr), every row of
// which its ids may choose.
DdrRegion gather_table(const DmaArgs& d);

// Calls visit(row, in_row, bytes) for each row's part of the bytes
// [offset, offset + bytes) of the region (counted in row order), in row
// order: `bytes` bytes of row `row` from its byte `in_row`.
template <class Visit>
void for_each_row_part(const DdrRegion& r, uint64_t offset, uint64_t bytes, Visit&& visit) {
    uint64_t row = offset / r.row_bytes, in_row = offset % r.row_bytes;
    while (bytes > 0) {
        const uint64_t take = bytes < r.row_bytes - in_row ? bytes : r.row_bytes - in_row;
        visit(row, in_row, take);
        bytes -= take;
        ++row;
        in_row = 0;
    }
}

// Calls visit(line) for every line of `line_bytes` bytes that the bytes
// [offset, offset + bytes) of the region (counted in row order) touch: row
// by row, and within a row from the lowest address up.
template <class Visit>
void for_each_line(const DdrRegion& r, uint64_t offset, uint64_t bytes, uint64_t line_bytes, Visit&& visit) {
    for_each_row_part(r, offset, bytes, [&](uint64_t row, uint64_t in_row, uint64_t take) {
        const uint64_t first = r.addr + row * r.stride + in_row;
        for (uint64_t line = first / line_bytes; line <= (first + take - 1) / line_bytes; ++line) visit(line);
    });
}

}  // namespace arch
