// Graph pass "fusion" (docs/timing-model.md §10, "Fusion"): groups a cube
// operation (matmul, conv2d: the table's Head) with the chain of
// element-wise, normalisation and layout operations (the table's Epilogue
// column, dsl/ir/op_table.def) that consume its result one after another,
// so that the lowering runs the chain on each output tile while it is in
// L1 (L0 -> L1 -> vector unit -> L1 -> DDR once) instead of sending every
// intermediate through DDR.
//
// The cube operation's result must be in DDR (its operands may be on-chip
// tensors). An operation joins the chain of the tensor `t` so far when:
//  * `t` is an intermediate in DDR that it alone reads (not a program
//    output, no other reader, no view of it), and no print(...) drains
//    between the cube operation and it;
//  * it computes in `t`'s dtype (the cube operation's output dtype, or the
//    dtype of the last cast before it: a cast may change it), writes a DDR
//    tensor and reads `t` as its first input (a binary op: either input);
//  * its other operand is a number (mul(x, 0.5)), a tensor of the output's
//    shape computed before the cube operation (a residual add), or for
//    batch_norm its per-channel scale and shift, channels being the GEMM's
//    columns (conv2d, a two-dimensional matmul);
//  * a format_convert only directly after its conv2d (the tile is then
//    stored transposed, NCHW).
//
// Vector chains: an element-wise operation in no cube operation's group
// (relu ... sqrt, silu, cast, clip, add ... minimum, batch_norm), or a max_pool
// or avg_pool, heads a group of the operations after it on the same rules,
// when each has the head's result's shape and the chain's dtype (a cast
// member changes it for the members after it), writes a DDR tensor and its
// other operand is a number, a tensor of its shape and dtype computed
// before the head or read by the head itself (not after a pooling head),
// or batch_norm's scale and shift (not after a head that broadcasts an
// operand or reads an on-chip tensor). The head's own inputs may be
// anything its lowering reads. A member's tensor operand may also be
// computed after the head (in DDR, no update in between): the chain then
// runs where its last member is (o * rescale + p @ v in one pass).
// The group is one streamed vector op (dsl/lower/vector/lower_vector_chain.h).
//
// Row groups, formed first: a row reduction (reduce_sum, reduce_mean,
// reduce_max over the last axis, keepdims) of a DDR tensor heads a group
// of the row reductions and row-wise operations (relu, sigmoid, tanh, exp,
// sqrt, add, sub, mul, div, maximum, minimum) after it that read its
// result or a member's, with DDR results of the head's leading axes and
// dtype, whose other operands are numbers or DDR tensors of those rows and
// dtype ready before the head, each of its result's row length or one
// element a row (broadcast over it), and none computed from another
// operand of the group. A print(...) that drains or an update ends the
// search. The group is one stream over rows
// (dsl/lower/vector/lower_row_group.cpp): a softmax written out of its
// steps, or a flash-attention step's statistics, in one pass; members'
// results that are read outside the group are stored.
//
// With TaskGraph::vector_buffers (vector units with Unified Buffers of
// their own) the tensors they touch count as DDR tensors: the lowering
// keeps them there (dsl/ir/vector_unit_tensors.h); the graph keeps their
// placements.
//
// With TaskGraph::fusion false (pypo.config.FUSION = False, --no-fusion)
// the pass leaves the graph alone.
#pragma once

#include <functional>
#include <string>

#include "dsl/ir/task_graph.h"

namespace dsl {

TaskGraph apply_fusion(const TaskGraph& g);

// "fusion groups: N\n  <tensor>: conv2d -> format_convert -> batch_norm -> relu  (ops 0-3)\n..."
// for the groups of a graph the pass has run on; "" when there are none.
// `unfused` (when given) says why a group's cube operation will not run
// it fused on the hardware ("" when it will): the line then ends
// "  [runs unfused: <why>]".
std::string format_fusion_groups(const TaskGraph& g,
                                 const std::function<std::string(const OpNode&)>& unfused = nullptr);

}  // namespace dsl
