// The inputs of a streamed vector op and how each reaches L1: streamed
// chunk by chunk, resident (a broadcast operand or a normalisation's
// parameters, loaded whole once per block), or a constant of the program
// (a number operand, 1/n of a mean), which needs no DDR data at all.
// Inputs stored in another dtype than the op computes in are cast on
// arrival, by the vector unit.
//
// A broadcast source is read in place with stride 0 (how vector units
// broadcast): the command names where it starts and describes the view
// (arch::VectorSource: a strided view, or the immediate of a constant) for
// the functional model. Its L1 buffer is still sized for the command's
// full extent, so that what the program checker sees as the source (rows x
// cols contiguous elements) lies in memory this op owns. Timing is
// unaffected: §8 depends only on the element count and dtype.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/lower/lower_context.h"
#include "dsl/lower/vector/lower_vector_stream.h"

namespace dsl {

class VectorInputs {
public:
    VectorInputs(const LowerContext& ctx, arch::DType compute, std::string out_name)
        : ctx_(&ctx), compute_(compute), out_(std::move(out_name)) {}

    // Registers an input and its buffers in `s`; returns its handle.
    // streamed: units are runs of `elems_per_unit` contiguous elements. An
    // on-chip tensor (dsl/lower/buffer_plan.h) is read where it is in L1, a
    // tensor kept in the Unified Buffers where it is in the unit's UB: no
    // buffer and no load (a cast, if needed, still gets its scratch).
    // With `share`, an input already streamed from the same tensor in the
    // same units and cast to the same compute dtype serves (a fused chain
    // reading the head's input again).
    int streamed(VectorStream& s, int tensor, int64_t elems_per_unit, bool share = false);
    // resident: the whole tensor, read broadcast over `extent_per_unit`
    // compute elements per unit of a chunk. `dims` and `strides` say how:
    // output element i (counted from the first unit of the stream) reads
    // the operand element sum_k idx_k * strides[k] of i decomposed over
    // dims (arch::VectorSource::Strided; see broadcast_source).
    int resident(VectorStream& s, int tensor, int64_t extent_per_unit, std::vector<uint32_t> dims,
                 std::vector<int64_t> strides);
    // A number (an immediate of the program), extent as for resident.
    // Its buffer only gives the command's source extent (the value is the
    // descriptor's immediate): with `share`, an earlier constant's buffer
    // of the same extent and compute dtype serves (a fused chain's numbers).
    int constant(VectorStream& s, int64_t extent_per_unit, double value, bool share = false);
    // The graph operation the inputs registered from now on are read for:
    // their loads and casts are charged to it (-1: the one being lowered).
    void charge_to(int32_t op) { op_ = op; }
    // The dtype the inputs registered from now on are read in (a fused
    // chain's members after a cast compute in the cast's dtype).
    void compute_in(arch::DType d) { compute_ = d; }

    // Appends the resident loads and casts (a block's prologue).
    void prologue(ChunkCommands& cc, const BufferAddrs& a) const;
    // A VectorStream::prologue that does just that.
    std::function<ChunkCommands(int64_t, int64_t, const BufferAddrs&)> prologue_fn() const;
    // Appends the streamed loads and casts of units [first, first + n).
    void chunk(ChunkCommands& cc, int64_t first, int64_t n, const BufferAddrs& a) const;
    // Where input `h` is, in the compute dtype (not for an on-chip input).
    uint64_t addr(int h, const BufferAddrs& a) const;
    // The same for the chunk starting at unit `first` (any input).
    uint64_t addr_at(int h, const BufferAddrs& a, int64_t first) const;

    // How a command whose element 0 is output element `first_element`
    // reads input `h`: contiguous, the immediate, or the broadcast view.
    arch::VectorSource source(int h, int64_t first_element) const;

    arch::DType compute() const { return compute_; }
    const std::string& out_name() const { return out_; }
    std::string label(arch::VectorOp op) const;  // "y: relu"

private:
    enum class How { Streamed, Resident, Constant, OnChip };
    struct Input {
        How how = How::Streamed;
        int tensor = -1;
        std::string name;
        arch::DType dtype = arch::DType::Float16;
        arch::DType compute = arch::DType::Float16;  // the dtype it is read in
        uint64_t ddr = 0;
        int64_t elements = 0;        // of the tensor (resident)
        int64_t per_unit = 0;        // elements per unit (streamed)
        int raw = -1, cast = -1;     // buffer indices; cast = raw when no cast is needed
        int32_t op = -1;             // charged to (charge_to)
        int64_t extent = 0;          // a constant's elements per unit
        double value = 0.0;          // a constant's
        std::vector<uint32_t> dims;  // a resident input's broadcast view
        std::vector<int64_t> strides;
    };
    const LowerContext* ctx_;
    arch::DType compute_;
    std::string out_;
    std::vector<Input> inputs_;
    int32_t op_ = -1;
};

int64_t element_count(const std::vector<int64_t>& shape);

// The row-major strides (in elements) an operand of shape `operand` is read
// with when broadcast to `out` (NumPy rules: 0 on the axes it lacks or has
// as 1), for VectorInputs::resident.
std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& operand, const std::vector<int64_t>& out);
std::vector<uint32_t> dims_of(const std::vector<int64_t>& shape);

// Descriptors of arch::VectorSource.
arch::VectorSource scalar_source(double value);
arch::VectorSource strided_source(uint64_t first, std::vector<uint32_t> dims, std::vector<int64_t> strides);
// One value per row (r, c) -> r, and one value per column (r, c) -> c.
arch::VectorSource per_row_source(int64_t rows, int64_t cols);
arch::VectorSource per_column_source(int64_t rows, int64_t cols);
// `v` with its sources' descriptors set.
arch::VectorArgs with_sources(arch::VectorArgs v, const arch::VectorSource& in0, const arch::VectorSource& in1 = {});

// Where the chunk starting at unit `first` writes its result: the output
// buffer `buffer`, or for an on-chip output its place in L1 (in the UB,
// for one kept in the Unified Buffers).
uint64_t output_addr(const LowerContext& ctx, int out, int64_t elems_per_unit, int64_t first, uint64_t buffer);

// Appends the store of units [first, first + n) of `elems_per_unit`
// contiguous elements each, from L1 `src`, to the output tensor (nothing
// for an on-chip output, which the computation wrote in place: see
// output_addr).
// The store is charged to `op` (-1: the operation being lowered).
void store_units(ChunkCommands& cc, const LowerContext& ctx, int out, int64_t elems_per_unit, int64_t first, int64_t n,
                 uint64_t src, int32_t op = -1);

}  // namespace dsl
