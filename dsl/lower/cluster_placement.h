// Which cluster holds which bytes of each on-chip tensor, and so where the
// blocks that use them run (docs/timing-model.md §10, "On-chip tensors").
//
// An on-chip tensor has the same L1 address on every cluster (the buffer
// plan's region is kept on all of them), and each cluster holds the bytes
// its own blocks wrote there: the parts of a result its blocks produced, or
// the whole of a buffer each cluster copied (replicated). A block's
// cluster follows from its commands: it must run where every on-chip byte
// it reads is held; among those clusters a block that writes on-chip bytes
// takes the one that has run the fewest of the operation's blocks (so an
// operation's blocks spread over all clusters), and a block that only
// reads bytes every cluster holds is left to the dispatcher.
//
// Why from the commands rather than from each lowering's decomposition:
// the commands are the one fact every lowering already produces exactly,
// so a producer and a consumer that decompose differently (a GEMM split
// over N, a vector stream over rows) are found out, not assumed to agree:
// a block whose reads no single cluster holds is a PlacementMismatch, and
// the compiler keeps that tensor in DDR instead and says so in a note
// (dsl/lower/program/lower.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "dsl/lower/buffer_plan.h"
#include "dsl/lower/placement_mismatch.h"
#include "sim/arch/program.h"

namespace dsl {

// The tensor as rows x cols (its last dimension against all the others).
struct Rect {
    int64_t r0 = 0, r1 = 0, c0 = 0, c1 = 0;
};

// What one block wrote of a tensor and where: `exact` when the bytes
// written are the whole rectangle (a GEMM block's C region, a vector
// stream's rows), which is what a consumer needs to follow the part.
struct TensorPart {
    Rect rect;
    int32_t cluster = 0;
    bool exact = true;
};

class ClusterPlacement {
public:
    ClusterPlacement(const TaskGraph& g, const BufferPlan& plan, int32_t clusters);

    int32_t clusters() const { return clusters_; }
    // Before each operation that uses on-chip tensors (op index `op`).
    void start_op(int op);
    // The cluster of a block of that operation (arch::Block::kAnyCluster to
    // leave it to the dispatcher): `pin` when it is one (a replicated copy,
    // a stream over a part), else as above. Records what it writes. Throws
    // PlacementMismatch when no cluster holds all it reads (or not `pin`).
    int32_t place(const arch::Block& b, int32_t pin);
    // The parts of `tensor` its producer's blocks wrote, in block order.
    const std::vector<TensorPart>& parts(int tensor) const { return parts_[size_t(tensor)]; }
    // Every cluster holds all of `tensor`.
    bool everywhere(int tensor) const;

private:
    // A set of a tensor's bytes, a bit each, tested a word at a time
    // (placement asks "are all of these bytes held?" for every on-chip
    // byte every block reads).
    struct ByteSet {
        std::vector<uint64_t> words;
        void resize(uint64_t bytes) { words.assign(size_t((bytes + 63) / 64), 0); }
        bool empty() const { return words.empty(); }
        void set(uint64_t b, uint64_t e);
        // Every byte of [b, e) is in this set or in `also` (may be empty).
        bool all(uint64_t b, uint64_t e, const ByteSet& also) const;
    };
    struct Access {
        int tensor;
        uint64_t begin, end;  // bytes within the tensor
    };
    void accesses(const arch::Block& b, std::vector<Access>& reads, std::vector<Access>& writes) const;
    void add(std::vector<Access>& out, uint64_t addr, uint64_t bytes) const;
    // Some live tensor has a byte in [begin, end): a command whose whole
    // reach touches none needs no walk row by row or element by element.
    bool touches_live(uint64_t begin, uint64_t end) const;
    bool holds(int32_t cluster, const Access& a) const;

    const TaskGraph& graph_;
    const BufferPlan& plan_;
    int32_t clusters_;
    int op_ = -1;
    std::vector<int> live_;                       // on-chip tensors live at op_
    std::vector<Access> reads_, writes_;          // place()'s scratch, kept to spare allocations
    std::vector<std::vector<ByteSet>> held_;      // [tensor][cluster]
    std::vector<std::vector<TensorPart>> parts_;  // [tensor]
    std::vector<int64_t> placed_in_op_;           // per cluster, blocks of op_ placed there
};

}  // namespace dsl
