// DMA: 2-D copies, float32 -> float16 narrowing, the cube DMA's im2col
// addressing, the cluster DMA's in-flight rearrangements and its gathers, exactly as
// sim/arch/program.h specifies them.
#include <algorithm>
#include <cstring>
#include <string>

#include "sim/func/effects.h"
#include "sim/func/numerics.h"

namespace func {

namespace {

using arch::DmaArgs;
using arch::Space;

// Bytes a 2-D region of `rows` rows of `row_bytes`, `stride` apart, spans.
uint64_t extent(uint64_t rows, uint64_t row_bytes, uint64_t stride) {
    return rows == 0 ? 0 : (rows - 1) * stride + row_bytes;
}

int unit_of(Space s, int unit) { return s == Space::L0 || s == Space::UB ? unit : -1; }

// Row by row; along a row the patch element (c, ky, kx) advances by
// counters, not divisions, and elements move as E-byte words.
template <size_t E>
void im2col_rows(const arch::Im2col& g, const DmaArgs& d, const uint8_t* slab, uint8_t* dst) {
    const uint64_t cols = d.row_bytes / E;
    for (uint64_t r = 0; r < d.rows; ++r) {
        const uint64_t p = g.pixel0 + r, oy = p / g.out_w, ox = p % g.out_w;
        const int64_t y0 = int64_t(oy * g.stride_h) - int64_t(g.pad_h),
                      x0 = int64_t(ox * g.stride_w) - int64_t(g.pad_w);
        uint8_t* out = dst + r * d.dst_stride;
        const uint64_t patch = uint64_t(g.kh) * g.kw;
        uint64_t c = g.k0 / patch, ky = g.k0 % patch / g.kw, kx = g.k0 % g.kw;
        for (uint64_t j = 0; j < cols; ++j) {
            const int64_t iy = y0 + int64_t(ky * g.dilation_h), ix = x0 + int64_t(kx * g.dilation_w);
            if (iy < 0 || ix < 0 || iy >= int64_t(g.height) || ix >= int64_t(g.width) || c >= g.channels) {
                std::memset(out + j * E, 0, E);  // padding is generated
            } else {
                const uint64_t at = g.channels_last ? (uint64_t(iy) * g.width + uint64_t(ix)) * g.channels + c
                                                    : (c * g.height + uint64_t(iy)) * g.width + uint64_t(ix);
                std::memcpy(out + j * E, slab + at * E, E);
            }
            if (++kx == g.kw) {
                kx = 0;
                if (++ky == g.kh) ky = 0, ++c;
            }
        }
    }
}

void im2col(Memory& m, int cube, const DmaArgs& d) {
    const arch::Im2col& g = *d.im2col;
    const uint8_t* slab = m.span(d.src, unit_of(d.src, cube), d.src_addr, g.slab_bytes(), "im2col source");
    uint8_t* dst = m.span(d.dst, unit_of(d.dst, cube), d.dst_addr, extent(d.rows, d.row_bytes, d.dst_stride),
                          "im2col destination");
    if (g.kh == 0 || g.kw == 0 || g.out_w == 0) throw FunctionalError("im2col with an empty kernel or output row");
    if (g.element_bytes == 4) return im2col_rows<4>(g, d, slab, dst);
    if (g.element_bytes == 2) return im2col_rows<2>(g, d, slab, dst);
    throw FunctionalError("im2col of " + std::to_string(g.element_bytes) + "-byte elements");
}

void transpose(Memory& m, const DmaArgs& d) {
    const uint64_t e = d.rearrange->element_bytes, cols = d.row_bytes / e;
    const uint8_t* src = m.span(d.src, -1, d.src_addr, extent(d.rows, d.row_bytes, d.src_stride), "transpose source");
    uint8_t* dst = m.span(d.dst, -1, d.dst_addr, extent(cols, d.rows * e, d.dst_stride), "transpose destination");
    for (uint64_t r = 0; r < d.rows; ++r)
        for (uint64_t c = 0; c < cols; ++c)
            std::memcpy(dst + c * d.dst_stride + r * e, src + r * d.src_stride + c * e, e);
}

void pixel_shuffle(Memory& m, const DmaArgs& d) {
    const uint64_t e = d.rearrange->element_bytes, r = d.rearrange->factor;
    if (r == 0 || d.rows % r || d.row_bytes % (r * e))
        throw FunctionalError("pixel_shuffle DMA: " + std::to_string(d.rows) + " rows of " +
                              std::to_string(d.row_bytes) + " bytes do not split by factor " + std::to_string(r));
    const uint64_t ph = d.rows / r, pw = d.row_bytes / (r * e), plane = ph * pw;
    const uint8_t* src = m.span(d.src, -1, d.src_addr, d.bytes(), "pixel_shuffle source");
    uint8_t* dst =
        m.span(d.dst, -1, d.dst_addr, extent(d.rows, d.row_bytes, d.dst_stride), "pixel_shuffle destination");
    for (uint64_t i = 0; i < r; ++i)
        for (uint64_t j = 0; j < r; ++j)
            for (uint64_t y = 0; y < ph; ++y)
                for (uint64_t x = 0; x < pw; ++x)
                    std::memcpy(dst + (y * r + i) * d.dst_stride + (x * r + j) * e,
                                src + ((i * r + j) * plane + y * pw + x) * e, e);
}

// Table row ids[r] to destination row r. An id outside the table is an
// error (naming the row and the id), never a read outside it.
void gather(Memory& m, const DmaArgs& d) {
    const arch::Gather& g = *d.gather;
    const uint8_t* ids = m.span(Space::L1, -1, g.index_addr, uint64_t(d.rows) * 4, "gather ids");
    const uint8_t* table =
        m.span(d.src, -1, d.src_addr, extent(g.table_rows, d.row_bytes, d.src_stride), "gathered table");
    uint8_t* dst = m.span(d.dst, -1, d.dst_addr, extent(d.rows, d.row_bytes, d.dst_stride), "gather destination");
    for (uint64_t r = 0; r < d.rows; ++r) {
        int32_t id;
        std::memcpy(&id, ids + 4 * r, 4);
        if (id < 0 || uint64_t(id) >= g.table_rows)
            throw DataError("gather: id " + std::to_string(id) + " (row " + std::to_string(r) +
                            ") is outside the table's " + std::to_string(g.table_rows) + " rows");
        std::memmove(dst + r * d.dst_stride, table + uint64_t(id) * d.src_stride, d.row_bytes);
    }
}

}  // namespace

void apply_dma(Memory& m, int cube, const DmaArgs& d) {
    if (d.im2col) return im2col(m, cube, d);
    if (d.gather) return gather(m, d);
    if (d.rearrange) {
        if (d.rearrange->kind == arch::Rearrange::Kind::Transpose) return transpose(m, d);
        return pixel_shuffle(m, d);
    }
    // A float32 source row holds twice the bytes of the 2-byte row written.
    const uint64_t src_row = d.convert_f32_to_f16 ? 2 * uint64_t(d.row_bytes) : d.row_bytes;
    const uint8_t* src =
        m.span(d.src, unit_of(d.src, cube), d.src_addr, extent(d.rows, src_row, d.src_stride), "DMA source");
    uint8_t* dst =
        m.span(d.dst, unit_of(d.dst, cube), d.dst_addr, extent(d.rows, d.row_bytes, d.dst_stride), "DMA destination");
    for (uint64_t r = 0; r < d.rows; ++r) {
        const uint8_t* s = src + r * d.src_stride;
        uint8_t* t = dst + r * d.dst_stride;
        if (!d.convert_f32_to_f16) {
            std::memmove(t, s, d.row_bytes);
            continue;
        }
        for (uint64_t i = 0; i < d.row_bytes / 2; ++i) {
            float f;
            std::memcpy(&f, s + 4 * i, 4);
            store_one(t + 2 * i, d.narrow_to, f);
        }
    }
}

}  // namespace func
