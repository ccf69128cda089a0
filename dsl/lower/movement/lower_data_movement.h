// Operations the cluster DMA engines carry out alone, staged through L1:
// transpose(engine='dma'), concat and pixel_shuffle. Each becomes a list
// of pieces (a DDR -> L1 load and the L1 -> DDR store that writes the same
// bytes to their place, possibly rearranged in flight: arch::Rearrange),
// split evenly into one block per cluster; every block streams its pieces
// through two L1 buffers so that loads overlap stores (with one DMA engine
// they simply alternate on it). No vector unit or cube is involved, so the
// cost is the bytes twice over the DDR link: a DMA transpose has no vector
// pass over L1 to pay for.
#pragma once

#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_context.h"
#include "sim/arch/program.h"

namespace dsl {

// One unit of a staged copy. Its L1 addresses are relative to the buffer
// the pipeline assigns (load.dst_addr and store.src_addr are 0 or offsets
// within the piece).
struct CopyPiece {
    arch::DmaArgs load, store;
    std::string load_label, store_label;
};

// The pieces that copy a rows x row_bytes region (strides in bytes) from
// DDR to DDR, each at most `max_bytes` (bands of whole rows, or segments of
// one row when a row is larger).
void add_copy_pieces(std::vector<CopyPiece>& out, uint64_t src, uint64_t src_stride, uint64_t dst, uint64_t dst_stride,
                     int64_t rows, int64_t row_bytes, int64_t max_bytes, const std::string& load_label,
                     const std::string& store_label);

// L1 bytes of one piece buffer: half of L1 (two buffers).
int64_t staged_piece_bytes(const arch::Config& c);

// Appends the blocks that move `pieces` (named `name[first:end]`).
void lower_staged_copies(LowerContext& ctx, const std::string& name, const std::vector<CopyPiece>& pieces);

void lower_transpose_dma_op(LowerContext& ctx, const OpNode& op);
void lower_concat_op(LowerContext& ctx, const OpNode& op);
void lower_pixel_shuffle_op(LowerContext& ctx, const OpNode& op);
// `buf[:] = t` (dsl/passes/pass_moves.h): one DDR -> L1 DMA of t's rows into the
// buffer's place in the home cluster's L1 (dsl/lower/buffer_plan.h).
void lower_move_op(LowerContext& ctx, const OpNode& op);

}  // namespace dsl
