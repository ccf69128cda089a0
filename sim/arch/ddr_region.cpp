#include "sim/arch/ddr_region.h"

namespace arch {

DdrRegion ddr_side_region(const DmaArgs& d) {
    const bool shuffle = d.rearrange && d.rearrange->kind == Rearrange::Kind::PixelShuffle;
    const bool transpose = d.rearrange && d.rearrange->kind == Rearrange::Kind::Transpose;
    if (d.src == Space::DDR) {
        if (d.gather) return {d.src_addr, d.rows, d.row_bytes, d.src_stride, true};
        if (shuffle) return {d.src_addr, 1, d.bytes(), 0};
        return {d.src_addr, d.rows, d.row_bytes, d.src_stride};
    }
    if (transpose) {
        const uint64_t e = d.rearrange->element_bytes;
        return {d.dst_addr, d.row_bytes / e, uint64_t(d.rows) * e, d.dst_stride};
    }
    return {d.dst_addr, d.rows, d.row_bytes, d.dst_stride};
}

DdrRegion gather_table(const DmaArgs& d) { return {d.src_addr, d.gather->table_rows, d.row_bytes, d.src_stride}; }

}  // namespace arch
