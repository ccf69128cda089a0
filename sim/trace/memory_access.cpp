#include "sim/trace/memory_access.h"

namespace trace {

namespace {

void add(std::vector<Region>& out, arch::Space space, bool write, uint64_t addr, uint64_t rows, uint64_t row_bytes,
         uint64_t stride) {
    if (space == arch::Space::DDR || rows == 0 || row_bytes == 0) return;
    if (rows == 1 || stride == row_bytes) row_bytes *= rows, rows = 1, stride = 0;
    out.push_back({space, write, addr, row_bytes, rows, stride});
}

}  // namespace

void command_regions(const arch::Command& c, std::vector<Region>& out, arch::Space vector_space) {
    using arch::Space;
    switch (c.op) {
    case arch::Opcode::Dma: {
        const arch::DmaArgs& d = c.dma;
        const bool transpose = d.rearrange && d.rearrange->kind == arch::Rearrange::Kind::Transpose;
        const bool shuffle = d.rearrange && d.rearrange->kind == arch::Rearrange::Kind::PixelShuffle;
        if (d.im2col) add(out, d.src, false, d.src_addr, 1, d.im2col->slab_bytes(), 0);
        else if (shuffle) add(out, d.src, false, d.src_addr, 1, d.bytes(), 0);
        else
            add(out, d.src, false, d.src_addr, d.rows, uint64_t(d.row_bytes) * (d.convert_f32_to_f16 ? 2 : 1),
                d.src_stride);
        if (transpose) {
            uint64_t e = d.rearrange->element_bytes;
            add(out, d.dst, true, d.dst_addr, d.row_bytes / e, uint64_t(d.rows) * e, d.dst_stride);
        } else {
            add(out, d.dst, true, d.dst_addr, d.rows, d.row_bytes, d.dst_stride);
        }
        break;
    }
    case arch::Opcode::Vector: {
        const arch::VectorArgs& v = c.vec;
        add(out, vector_space, false, v.src0, 1, v.src_bytes(), 0);
        if (v.src1 != arch::kNoAddress) add(out, vector_space, false, v.src1, 1, v.src_bytes(), 0);
        if (v.src2 != arch::kNoAddress) add(out, vector_space, false, v.src2, 1, v.src_bytes(), 0);
        add(out, vector_space, true, v.dst, 1, v.dst_bytes(), 0);
        break;
    }
    case arch::Opcode::Matmul: {
        const arch::MatmulArgs& m = c.mm;
        uint64_t e = uint64_t(arch::dtype_bytes(m.dtype)), c_bytes = uint64_t(m.m) * m.n * 4;
        add(out, Space::L0, false, m.a_addr, 1, uint64_t(m.m) * m.k * e, 0);
        add(out, Space::L0, false, m.b_addr, 1, uint64_t(m.k) * m.n * e, 0);
        if (m.accumulate) add(out, Space::L0, false, m.c_addr, 1, c_bytes, 0);
        add(out, Space::L0, true, m.c_addr, 1, c_bytes, 0);
        break;
    }
    }
}

}  // namespace trace
