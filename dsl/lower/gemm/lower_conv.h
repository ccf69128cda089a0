// conv2d as an implicit GEMM on the shared schedule (dsl/lower/gemm/lower_gemm.h):
// C[M x N] = A[M x K] * B[K x N] with M = OH * OW output pixels of one
// image, K = C * kh * kw patch elements in (channel, ky, kx) order and
// N = O output channels.
//
// * B is the weights as stored: (O, C, kh, kw) row-major is the O x K
//   matrix B^T, read with GemmOperands::b_transposed (panels of cols rows
//   of kb elements; same bytes as K x N).
// * A, the im2col matrix, is never materialised, in DDR or in L1: an A
//   panel is the input rows (with the halo) a block of output pixels needs,
//   for the panel's whole channels (panels are multiples of kh * kw deep),
//   loaded by the cluster DMA as raw rows (NCHW: a row per channel; NHWC:
//   a row of the panel's channels per pixel); padding costs no DDR bytes. The cube DMA then generates each mt x kt
//   im2col tile from that slab while loading L0 (arch::Im2col): the L1 port moves the expanded tile's bytes.
// * C is written in the GEMM's natural order, (OH * OW, O) per image: the
//   output is NHWC. The layout pass (dsl/passes/pass_layout.h) has made the
//   output tensor NHWC and, where the graph wants NCHW, added a
//   format_convert after the conv2d.
// * Blocks never straddle two images: each image is its own GEMM.
#pragma once

#include "dsl/ir/task_graph.h"
#include "dsl/lower/lower_context.h"

namespace dsl {

void lower_conv2d_op(LowerContext& ctx, const OpNode& op);

}  // namespace dsl
