// What every operation's lowering works with: the graph, the hardware, the
// program being built, and where each tensor lives in DDR.
#pragma once

#include <cstdint>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/block_builder.h"
#include "dsl/lower/buffer_plan.h"
#include "dsl/lower/cluster_placement.h"
#include "dsl/lower/ddr_footprint.h"
#include "dsl/lower/lower_options.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"

namespace dsl {

struct LowerContext {
    LowerContext(const TaskGraph& g, const arch::Config& c, arch::Program& p, const BufferPlan& b,
                 const LowerOptions& o = {})
        : graph(g), config(c), options(o), program(p), tags(p), plan(b) {}

    const TaskGraph& graph;
    // The hardware as the lowerings may use it: L1 less the region the
    // buffer plan keeps for on-chip tensors.
    const arch::Config& config;
    const LowerOptions options;
    arch::Program& program;
    TagTable tags;
    const BufferPlan& plan;
    // The operation being lowered reads or writes an on-chip tensor: each
    // of its blocks runs on the cluster `placement` decides (the one that
    // holds what it reads, dsl/lower/cluster_placement.h).
    bool pinned = false;
    ClusterPlacement* placement = nullptr;
    // The cluster the blocks being lowered must run on (a replicated
    // buffer's copy, a stream over one part of a partitioned tensor), or
    // -1: the placement chooses.
    int32_t pin = -1;
    // The tensors kept in the vector units' Unified Buffers that the
    // operation (with its fusion group) reads or writes, all of `ub_rows`
    // rows (0: none): its streams take those rows in the units' bands
    // (dsl/lower/buffer_plan.h UbBands), each block on its cluster
    // (`block_cluster` while it is added). The lowerings that read or
    // write such a tensor in place note it in `ub_followed`; one that
    // does not is found out after the operation (its tensors are then
    // kept in DDR instead).
    std::vector<int> ub_tensors;
    int64_t ub_rows = 0;
    int32_t block_cluster = -1;
    // An operation keeping nothing on chip that reads or writes one
    // strand's tensors (dsl/lower/ub_strands.h) when the strands share the
    // clusters: its blocks run on the strand's `strand_clusters` clusters
    // from `strand_first` on, in turn (0: anywhere).
    int32_t strand_first = 0;
    int64_t strand_clusters = 0;
    uint32_t strand_blocks = 0;  // of the operation's, placed so far
    mutable std::vector<int> ub_followed;
    // An element-wise operation lowered over one part of a partitioned
    // on-chip tensor (its rows r0.. of `rows`, columns c0.. of `cols`, of a
    // tensor viewed as rows of `row_elems`); inactive (rows < 0) otherwise.
    struct Window {
        int64_t r0 = 0, rows = -1, c0 = 0, cols = 0, row_elems = 0;
        bool active() const { return rows >= 0; }
        // Not whole rows: units are strided in the tensor.
        bool strided() const { return active() && cols != row_elems; }
    } window;
    // The element offset of unit `first` of `per_unit` elements: in the
    // window when there is one, else first * per_unit.
    int64_t unit_elem(int64_t first, int64_t per_unit) const {
        return window.active() ? (window.r0 + first) * window.row_elems + window.c0 : first * per_unit;
    }
    // Set by a cube operation's lowering when it ran its fusion group's
    // epilogue (dsl/lower/gemm/gemm_epilogue.h): the group's other
    // operations then emit nothing.
    bool epilogue_fused = false;
    // Otherwise, for an operation with a fusion group: why not (for the
    // report's notes and --explain).
    std::string epilogue_unfused;

    // The operation being lowered: its index in Program::ops (for tags) and
    // the blocks it must wait for: `deps` all of them (its producers'
    // blocks of on-chip data, a stage's previous stage), and of `data_deps`
    // (its producers' blocks of DDR data) those that wrote bytes the block
    // reads or writes in DDR: a block waits only for the parts it uses
    // (docs/timing-model.md §10 "Block dependencies"); and a print's drain.
    int32_t program_op = -1;
    std::vector<uint32_t> deps, data_deps;
    // Of `ub_deps` (its producers' blocks of tensors kept in the Unified
    // Buffers, and the blocks that used the UB bytes its results take)
    // those on the block's cluster: every stream over such tensors takes
    // their rows in the same bands, so only those touched the rows, and
    // the bytes, the block uses.
    std::vector<uint32_t> ub_deps;
    // Of `reuse_deps` (the blocks that read or wrote the DDR buffers its
    // results take in a strand's workspace, dsl/lower/ddr_workspace.h,
    // since a holder's writer last wrote all of it) those that read or
    // wrote a byte the block writes.
    std::vector<uint32_t> reuse_deps;
    // The operation overwrites DDR bytes in place (an update): its blocks
    // also wait for every earlier block that read or wrote a DDR byte they
    // write, whichever version of the tensor, through whichever view or
    // copy, it read.
    bool overwrites = false;
    uint32_t drain = 0;  // its blocks wait for blocks [0, drain) (after a print)

    uint64_t ddr_addr(int tensor) const { return program.tensors[size_t(tensor)].ddr_addr; }
    bool on_chip(int tensor) const { return plan.on_chip(tensor); }
    // Read and written where it is, in L1 or in the Unified Buffers.
    bool in_place(int tensor) const { return plan.in_place(tensor); }
    // Byte `offset` of such a tensor, where the block at hand finds it.
    uint64_t place_at(int tensor, uint64_t offset) const {
        if (plan.in_ub(tensor) && (ub_followed.empty() || ub_followed.back() != tensor)) ub_followed.push_back(tensor);
        return plan.place_at(tensor, offset);
    }
    uint64_t l1_addr(int tensor) const { return plan.l1_addr(tensor); }
    const TensorNode& tensor(int index) const { return graph.tensors[size_t(index)]; }
    uint32_t tag(const std::string& label) { return tags(label, program_op); }
    // Charged to operation `op` (a fused group's member), or with op < 0
    // to the one being lowered.
    uint32_t tag(const std::string& label, int32_t op) { return tags(label, op >= 0 ? op : program_op); }
    // The buffering depth of a pipelined buffer: pypo.config.BUFFERS when
    // the program set it, else `fallback` (the operation's own choice).
    // (Recorded for --explain.)
    int64_t buffering(int64_t fallback) const {
        buffering_used = graph.buffers > 0 ? graph.buffers : fallback;
        return buffering_used;
    }
    mutable int64_t buffering_used = 0;
    // The operation's entry of options.explain, or null when not explaining.
    OpExplanation* explaining = nullptr;

    // A DDR tensor of the lowering's own (a fold-major GEMM's float32 partial
    // sums), placed after every tensor placed so far and listed with them in
    // Program::tensors (role "scratch"); its address. Throws CompileError at
    // `loc` when DDR is full.
    uint64_t ddr_scratch(const std::string& name, const std::vector<int64_t>& shape, arch::DType dtype,
                         const SourceLoc& loc);

    // Appends a finished block with the operation's dependencies, those of
    // data_deps it needs (to the program, or gives it to options.block_sink).
    void add_block(BlockBuilder& block);
    // Blocks emitted so far; the next one's number.
    uint32_t blocks_emitted() const { return blocks_emitted_; }
    // The DDR bytes block `b` (emitted) writes.
    const SpanList& block_writes(uint32_t b) const { return block_writes_[b]; }
    // Each tensor's readers (tensor_consumers), found once for the program
    // rather than by every operation that asks.
    const std::vector<std::vector<int>>& readers() const {
        if (readers_.size() != graph.tensors.size()) readers_ = tensor_consumers(graph);
        return readers_;
    }

private:
    mutable std::vector<std::vector<int>> readers_;
    uint32_t blocks_emitted_ = 0;
    std::vector<SpanList> block_reads_, block_writes_;  // per block emitted, the DDR bytes it reads, writes
    std::vector<int32_t> block_clusters_;               // per block emitted, its cluster (Block::cluster)
};

}  // namespace dsl
