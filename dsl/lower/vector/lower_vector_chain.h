// Element-wise operations as the links of one chain on a streamed vector
// op (lower_vector_stream.h; docs/timing-model.md §10 "Fusion" and "Vector
// operation lowering"). Each operation adds its operands' buffers to the
// stream (streamed, resident, gathered, a number) and its VECTOR steps to
// every chunk. The first link loads all its inputs (a standalone relu, add
// or batch_norm is a chain of one); every later one, a member of the
// head's fusion group (OpNode::epilogue, dsl/passes/pass_fusion.h), reads
// the result so far where it is in L1 and writes it in place, so only the
// chain's last tensor is stored. A pooling head computes its result
// itself and gives the chain its members alone. A silu member computes its
// sigmoid into a scratch buffer and multiplies the result by it in place
// (a swiglu member its silu there, then multiplies it by its other input);
// a cast member writes a buffer of its own in the new dtype (sized per
// unit in it), and the members after it compute in that dtype: the chain's
// results are then in several buffers, the last of them stored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/lower/lower_context.h"
#include "dsl/lower/vector/lower_vector_inputs.h"
#include "dsl/lower/vector/lower_vector_stream.h"

namespace dsl {

// A broadcast operand too large to keep resident, loaded chunk by chunk:
// the output, viewed as rows of `cols` elements, reads operand element
// off(r) + c of row r (a run of cols elements when the operand has the
// output's last axis), or off(r) alone, broadcast over the row (per_row,
// when its last axis is 1 and cols > 1). A chunk's rows are gathered with
// one DMA per run of rows whose operand data are consecutive. An on-chip
// operand broadcast over the rows' last axis alone (a row statistic, (R, 1)
// against (R, C)) is not loaded: the commands read it where it is in L1
// (or in the unit's UB, kept in the Unified Buffers), its element r for
// output row r (`in_place`: tensor `tensor`).
struct Gather {
    std::string name;
    arch::DType dtype = arch::DType::Float16;
    arch::DType compute = arch::DType::Float16;  // what it is cast to (when cast != raw)
    uint64_t ddr = 0;
    const LowerContext* in_place = nullptr;  // read in place: where the context places it
    int tensor = -1;
    std::vector<int64_t> dims, strides;  // the output's shape, the operand's strides in it
    int64_t cols = 1, row_elems = 1;     // elements of the operand one output row reads
    bool per_row = false;
    size_t raw = 0, cast = 0;     // buffer indices (cast = raw when no cast is needed)
    LowerContext::Window window;  // over a part of a partitioned tensor, row r is window row r
    int32_t op = -1;              // the operation it is read for (tags)

    int64_t offset(int64_t row) const;
    void chunk(ChunkCommands& cc, int64_t first, int64_t n, const BufferAddrs& a, const std::string& out) const;
    // Where the chunk starting at output row `first` reads it.
    uint64_t addr(const BufferAddrs& a, int64_t first) const {
        if (!in_place) return a[cast];
        return in_place->place_at(tensor, uint64_t(offset(first) * arch::dtype_bytes(dtype)));
    }
    arch::VectorSource source(int64_t n) const { return per_row ? per_row_source(n, cols) : arch::VectorSource{}; }
};

class ElementwiseChain {
public:
    ElementwiseChain(const LowerContext& ctx, arch::DType compute, const std::string& name);

    // Adds `op`, which reads tensor `cur` as the result so far (-1: the
    // chain's first link, whose inputs are all loaded). `extent`: elements
    // of the result per stream unit; `cols`: elements of a command row (a
    // gathered operand's row). `steps` (lower_unary_steps): its VECTOR
    // instructions; empty: the table's instruction, or batch_norm's mul
    // and add. Throws PlacementMismatch for a broadcast on-chip operand.
    void add(VectorStream& s, const OpNode& op, int cur, int64_t extent, int64_t cols,
             std::vector<arch::VectorOp> steps = {});
    // After the first link: its result is buffer `buffer` of the stream
    // (-1: none, the output's place on chip), in `dtype`, which the members
    // then compute in.
    void head_result(int buffer, arch::DType dtype);
    // After the last link: the results before the last one (a cast's
    // source) are a chunk's temporaries (BufferKind::Scratch).
    void finish(VectorStream& s) const;
    // The buffer of the chain's final result (what is stored), or -1.
    int result_buffer() const { return results_.empty() ? -1 : results_.back().buffer; }

    // The block's prologue: the resident operands' loads and casts.
    std::function<ChunkCommands(int64_t, int64_t, const BufferAddrs&)> prologue_fn() const { return in_.prologue_fn(); }
    // The chunk's loads (and casts) of units [first, first + n).
    void loads(ChunkCommands& cc, int64_t first, int64_t n, const BufferAddrs& a) const;
    // The links' VECTOR commands on the chunk starting at unit `first`:
    // the final result is `rows x cols` at `dst`, its element 0 being the
    // output's element `first_elem` (earlier results, before a cast, are in
    // their buffers).
    void compute(ChunkCommands& cc, const BufferAddrs& a, int64_t first, uint64_t dst, int64_t rows, int64_t cols,
                 int64_t first_elem) const;

private:
    struct Ref {
        // Result: results_[h]; Scratch: scratch_[h] (silu's sigmoid).
        enum class Kind { None, Result, Input, Gathered, Scratch } kind = Kind::None;
        int h = 0;
    };
    struct Step {
        arch::VectorOp op = arch::VectorOp::Copy;
        Ref a, b, dst;
        arch::DType dtype = arch::DType::Float16;    // as VECTOR names it (a cast's: the source's)
        arch::DType cast_to = arch::DType::Float16;  // a cast's target
        int32_t program_op = -1;
        std::string label;
        Ref c;  // select's condition (src2)
    };
    struct Buffer {
        int buffer = -1;  // in the stream
        arch::DType dtype = arch::DType::Float16;
    };
    Ref operand(VectorStream& s, const OpNode& op, int t, int cur, int64_t extent, int64_t cols);
    Ref result() const { return {Ref::Kind::Result, results_.empty() ? 0 : int(results_.size()) - 1}; }

    const LowerContext* ctx_;
    VectorInputs in_;
    std::vector<Gather> gathers_;
    std::vector<Step> steps_;
    std::vector<Buffer> results_, scratch_;
};

// The element-wise lowering (lower_unary_steps, lower_binary,
// lower_batch_norm): `op` and, when it heads a vector fusion group that
// this lowering can run, its members, on one stream; sets
// LowerContext::epilogue_fused when they ran fused.
void lower_elementwise(LowerContext& ctx, const OpNode& op, const std::vector<arch::VectorOp>& steps);

}  // namespace dsl
