// A strand's workspace in DDR: its intermediates take the bytes of its
// dead ones in turn (docs/timing-model.md §10, "Workspace").
//
// Why: every intermediate has DDR bytes of its own otherwise, and a
// flash-attention query block's scores, probabilities and partial outputs,
// step after step, are written into fresh lines of the L2 until it is full,
// and then written back to DDR though nothing reads them again (1.2 GB at
// S = 16,384). A vendor kernel gives each core a small workspace reused
// step by step, which stays in the L2.
//
// Why per strand and per operation of the source: a strand's steps follow
// one another on its own clusters, so reusing its bytes orders nothing that
// could have overlapped but a step with one some steps before it; across
// strands (which run at once on other clusters) it would. Program order is
// not the run's order: a step's score matmul may run while the softmax of
// steps before it still reads their scores. So the results of each
// operation of the source (a loop body's, once per step) take at least
// pypo.config.WORKSPACE_BUFFERS (TaskGraph::workspace_buffers, 5 by
// default) buffers of their own in a strand, and a new result
// takes the least recently used of them that is dead in program order; its
// writer waits for the blocks that used the bytes before it.
#pragma once

#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/ub_strands.h"

namespace dsl {

struct DdrWorkspace {
    // Per graph tensor: the tensor whose DDR bytes it takes (the first of
    // their holders, which has bytes of its own), -1 for none.
    std::vector<int> takes;
    // Per graph tensor: the holder of those bytes just before it, -1 for
    // none (the one --dump-program names).
    std::vector<int> previous;
    // Per graph tensor: whether a later tensor takes its bytes.
    std::vector<bool> reused;
    // Per graph tensor: the buffer it is in, named by its first holder (the
    // tensor whose bytes they are), -1 for a tensor outside every strand's
    // workspace.
    std::vector<int> buffer;
};

// The workspace of `g`'s strands. `eligible` (per graph tensor): an
// intermediate with DDR bytes of its own and no other tensor in them (not
// a view, nor viewed, updated or kept on chip); `first_at` / `last_at`: the
// operations' lowering steps (lowering_steps, dsl/lower/program/lower.cpp).
DdrWorkspace plan_ddr_workspace(const TaskGraph& g, const UbStrands& strands, const std::vector<bool>& eligible,
                                const std::vector<int>& first_at, const std::vector<int>& last_at);

}  // namespace dsl
