// The command ISA: the seam between the compiler (dsl/) and the hardware
// model (sim/hw/). Plain data, printable, consumed by the SystemC model and by
// the reference oracle alike.
//
// A Program is a list of Blocks. The dispatcher hands each block to one
// cluster; inside the block every engine of that cluster runs its own
// in-order command stream, and engines synchronise only through the block's
// flags (counting semaphores: set at a command's end, waited before a
// command's start). Timing is specified in docs/timing-model.md.
//
// The members of the command structs (Im2col, Rearrange, DmaArgs,
// MatmulArgs, VectorArgs, VectorSource and Command's waits, sets, tag and
// issue_cycles) and the vector ops are declared in isa_fields.def, with
// their JSON keys, defaults and meaning (docs/isa.md is printed from it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/arch/flag_list.h"
#include "sim/arch/vector_source.h"

namespace arch {

// The element types. Their numbers are the spool codec's encoding, so a new
// one goes at the end. bfloat16 is float32's exponent with an 8-bit
// significand (sim/arch/bfloat16.h); float16 is IEEE binary16 (half.h).
// int8 and int32 are two's-complement integers: int8 the cube's quantised
// operand (accumulated in int32, timing model §7.1), int32 its accumulator
// and the result of an int8 GEMM.
enum class DType : uint8_t { Float16, Float32, BFloat16, Int8, Int32 };
constexpr int kDTypeCount = 5;
inline bool dtype_is_int(DType t) { return t == DType::Int8 || t == DType::Int32; }
int dtype_bytes(DType t);
const char* dtype_name(DType t);  // "float16"

// UB: a vector unit's own Unified Buffer (vector.buffer_kib > 0), one per
// unit, addressed by that unit and its DMA engine only. New spaces go at the
// end (the spool codec's encoding).
enum class Space : uint8_t { DDR, L1, L0, UB };
constexpr int kSpaceCount = 4;
const char* space_name(Space s);  // "DDR"

// The engines of one cluster. Cluster DMA engines move DDR<->L1; each cube
// has its own DMA engine (L1<->L0) and its MAC array; vector units compute
// on L1 directly, or, with Unified Buffers (vector.buffer_kib > 0), on their
// own UB, which two DMA engines of their own fill from DDR (VectorLoad,
// Ascend's MTE2 of a vector core) and drain to it (VectorStore, its MTE3).
enum class EngineKind : uint8_t { ClusterDma, CubeDma, Cube, Vector, VectorLoad, VectorStore };
inline bool is_vector_dma(EngineKind k) { return k == EngineKind::VectorLoad || k == EngineKind::VectorStore; }
// The engines that request the DDR side (§6): the cluster's DMA engines and
// the vector units' load and store engines.
inline bool requests_ddr(EngineKind k) { return k == EngineKind::ClusterDma || is_vector_dma(k); }
// The two sides of a cluster that vector.separate_cores dispatches apart
// (timing model §4): the cube core (the cluster's DMA engines, the cubes and
// their DMA engines) and the vector cores (the vector units and their load
// and store engines).
enum class Side : uint8_t { Cube, Vector };
inline Side engine_side(EngineKind k) {
    return k == EngineKind::Vector || is_vector_dma(k) ? Side::Vector : Side::Cube;
}
const char* side_name(Side s);  // "the cube core", "the vector cores"

struct EngineId {
    EngineKind kind = EngineKind::ClusterDma;
    int index = 0;  // DMA engine number for ClusterDma, vector unit number for Vector and its DMA engines, cube number
                    // otherwise
    bool operator==(const EngineId& o) const { return kind == o.kind && index == o.index; }
    bool operator!=(const EngineId& o) const { return !(*this == o); }
};
std::string engine_name(EngineId e);  // "dma0", "cube2.dma", "cube2", "vector0", "vector0.load", "vector0.store"

// The order engines are listed in (streams, reports, CSV rows): cluster DMA
// engines, then cube by cube its DMA engine and its MAC array, then vector
// unit by vector unit its load engine (if it has one), the unit and its
// store engine (if it has one). A sort key, not an index: only comparisons are
// meaningful.
std::pair<int, int64_t> engine_order(EngineId e);

struct Config;
// Where `c`'s vector units compute: their own Unified Buffers
// (vector.buffer_kib > 0), or the cluster's L1.
Space vector_space(const Config& c);
// Every engine of one cluster of `c`, in engine_order.
std::vector<EngineId> cluster_engines(const Config& c);
// Engine e of cluster `cluster` numbered among every engine of the chip:
// cluster by cluster, each in cluster_engines order (a recorder's index).
size_t engine_slot(const Config& c, uint32_t cluster, EngineId e);
// The kind as reports and traces name it: "dma", "cube_dma", "cube", "vector", "vector_load", "vector_store".
const char* engine_kind_name(EngineKind k);

enum class Opcode : uint8_t { Dma, Matmul, Vector };

// A 2D copy: `rows` rows of `row_bytes` bytes (the bytes that cross the link),
// strides in bytes. A DMA between DDR and L1 crosses the DDR link; between L1
// and L0 the cluster's L1 port. `convert` narrows float32 to float16 (or, with
// narrow_to, bfloat16) in flight (the cube's accumulator written back in the
// result's dtype): addresses and strides
// count the destination's bytes, the source holds twice as many.
// The im2col addressing of a convolution, done by a cube's DMA engine while
// it loads L0 (a descriptor: it changes which bytes are read, not how many
// cross the link, so timing is by rows x row_bytes as for any DMA, §6).
// The source is a slab of `channels x height x width` elements in L1 at
// src_addr (the input rows a block of output pixels needs); the destination
// is `rows x row_bytes / element_bytes` elements of the im2col matrix, row
// after row: row r is output pixel pixel0 + r of the slab, numbered row-major
// with out_w pixels per output row; column j is patch element k0 + j in
// (channel, ky, kx) order. Pixel (oy, ox) and element (c, ky, kx) read
// slab[c][oy * stride_h + ky - pad_h][ox * stride_w + kx - pad_w], and zero
// outside the slab: padding is generated, never loaded. pad_h is the
// padding above this slab (the convolution's for the image's top rows, 0
// for a slab that starts lower).
// The fields, with their defaults and meaning, are in isa_fields.def.
struct Im2col {
#define ISA_IM2COL(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
    uint64_t slab_bytes() const { return uint64_t(channels) * height * width * element_bytes; }
    // Output rows whose windows start inside the padded slab or less than a
    // stride below it (conv2d's rounding='ceil': such a window reads only
    // zeros): oy * stride_h - pad_h < height + stride_h - 1.
    uint64_t out_rows() const { return (uint64_t(height) + pad_h + stride_h - 2) / stride_h + 1; }
};

// An element rearrangement a cluster DMA engine applies in flight (also a
// descriptor: the link moves rows x row_bytes bytes either way, §6).
// Transpose: the source is a rows x (row_bytes / e) matrix (src_stride
// apart); the destination receives its transpose, row_bytes / e rows of
// rows * e bytes, dst_stride apart. PixelShuffle (depth to space, factor r):
// the source holds r*r planes of (rows / r) x (row_bytes / (r e)) elements
// one after another, contiguous; plane i*r + j lands on destination rows
// y*r + i, columns x*r + j of the rows x row_bytes destination.
struct Rearrange {
    enum class Kind : uint8_t { Transpose, PixelShuffle };
#define ISA_REARRANGE(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
};
const char* rearrange_kind_name(Rearrange::Kind k);  // "transpose", "pixel_shuffle"

// A gather (an embedding lookup): the DMA engine reads the rows int32 ids
// at index_addr in L1 when the command starts, and source row r is table
// row ids[r], at src_addr + ids[r] * src_stride; the destination is as for
// a copy. The link still moves rows x row_bytes bytes (§6); with an L2 the
// rows' addresses are unknown to the timing, which times them as misses
// (docs/timing-model.md §6.1).
struct Gather {
#define ISA_GATHER(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
};

struct DmaArgs {
#define ISA_DMA(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
    uint64_t bytes() const { return uint64_t(rows) * row_bytes; }
};

// C[m x n] (+)= A[m x k] * B[k x n] with all three in the cube's L0.
// The accumulator C is float32. A is m x k row-major, C m x n row-major;
// B is k x n row-major, or with b_transposed n x k row-major (a
// convolution's weights, stored filter by filter): the cube reads it
// either way at the same cost (a descriptor for the functional model,
// docs/functional.md).
struct MatmulArgs {
#define ISA_MATMUL(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
    uint64_t macs() const { return uint64_t(m) * k * n; }
};

// What a vector unit computes. Element-wise ops map each element (binary
// ones combine src0 and src1 element by element); the reductions reduce each
// row of `cols` elements to one value; Transpose writes the cols x rows
// transpose. The operations are listed in isa_fields.def.
enum class VectorOp : uint8_t {
#define ISA_VECTOR_OP(name, key, sources, reduces, doc) name,
#include "sim/arch/isa_fields.def"
};
constexpr int kVectorOpCount = 0
#define ISA_VECTOR_OP(name, key, sources, reduces, doc) +1
#include "sim/arch/isa_fields.def"
    ;
const char* vector_op_name(VectorOp op);  // "add", "reduce_sum"
bool vector_op_is_binary(VectorOp op);    // combines src0 and src1: add, sub, mul, div, maximum, minimum
int vector_op_sources(VectorOp op);       // the sources read: 1, 2 (src1 too) or 3 (select: src1 and src2)
bool vector_op_is_reduce(VectorOp op);    // reduce_sum, reduce_max, argmax: one value per row
// Whether the vector unit runs `op` on integer elements (int8, int32):
// copies, casts, transposes, add/sub/mul/maximum/minimum/relu and the
// reductions, saturating to the dtype; not div, sqrt or the
// transcendentals, which have no integer form.
bool vector_op_takes_int(VectorOp op);
// Whether the cube multiplies operands of `t`: every dtype but int32 (the
// accumulator of int8, never an operand).
inline bool matmul_dtype_ok(DType t) { return t != DType::Int32; }

// No address: the value of VectorArgs::src1 (src2) for ops with fewer sources.
constexpr uint64_t kNoAddress = ~uint64_t{0};

// A vector command on a rows x cols matrix of `dtype` elements, row-major and
// contiguous in L1 (byte addresses), its sources read as in0 and in1 say. For Cast, `dtype` names the SOURCE type
// and `cast_to` the destination's (any other float dtype): its region has
// rows * cols * dtype_bytes(cast_to) bytes. Reductions write `rows`
// elements of `dtype` (argmax: of int32, dst_dtype()).
struct VectorArgs {
#define ISA_VECTOR(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
    // in0 and in1 (how src0 and src1 are read; null = contiguous) are
    // shared and immutable, so the common case costs a pointer per command
    // and copies share them.
    // Source 0, 1 or 2's descriptor (a contiguous one when null).
    const VectorSource& source(int i) const;
    uint64_t elements() const { return uint64_t(rows) * cols; }
    uint64_t src_bytes() const { return elements() * uint64_t(dtype_bytes(dtype)); }
    // The destination's element type: cast_to for a cast, int32 for
    // argmax, else dtype.
    DType dst_dtype() const;
    uint64_t dst_bytes() const;
};

struct Command {
    Opcode op = Opcode::Dma;
    DmaArgs dma;
    MatmulArgs mm;
    VectorArgs vec;
    // waits and sets (flag tokens consumed before the start, added at the
    // end), tag (an index into Program::tags) and issue_cycles: the cycles
    // the engine's in-order issue spends on loop control (branch, address
    // update) before this command, counted from the previous command's end
    // (or the block's start); they overlap waiting for flags: the command
    // starts at max(ready + issue_cycles, flag times) (§5).
#define ISA_COMMAND(type, member, key, def, write, check, unit, doc) type member = def;
#include "sim/arch/isa_fields.def"
};

struct Stream {
    EngineId engine;
    std::vector<Command> commands;
};

struct Block {
    std::string name;
    std::vector<uint32_t> deps;  // blocks that must finish before this starts
    uint32_t drain = 0;          // also waits for every block numbered below this (print's global drain)
    // The cluster the block must run on (its data is in that cluster's L1),
    // or kAnyCluster.
    int32_t cluster = -1;
    static constexpr int32_t kAnyCluster = -1;
    uint16_t num_flags = 0;
    std::vector<Stream> streams;  // at most one per engine
};
// The side a block runs on (§4): that of the engine of its first stream
// with commands; the cube side for a block without commands. With
// vector.separate_cores, arch::check_program requires every stream with
// commands to be on that side.
Side block_side(const Block& b);

struct TensorPlacement {
    std::string name;
    std::vector<int64_t> shape;
    DType dtype = DType::Float16;
    uint64_t ddr_addr = 0;
    uint64_t bytes = 0;
    std::string role;  // "input", "output", "intermediate"
    // An on-chip tensor (kept in cluster 0's L1, not in DDR): its L1 byte
    // address; -1 for a tensor in DDR at ddr_addr.
    int64_t l1_addr = -1;
    // A tensor kept in the vector units' Unified Buffers (in bands of rows,
    // one per vector unit of each cluster, docs/timing-model.md §10): its
    // UB byte address, the same in every unit; -1 otherwise.
    int64_t ub_addr = -1;
};

// What a command is for: a readable label and the program operation it
// implements (an index into Program::ops, -1 for none), so reports can
// account cycles per operation and per task.
struct CommandTag {
    std::string label;
    int32_t op = -1;
};

// An operation of the source program, as reports name it.
struct ProgramOp {
    std::string name;             // its output tensor: "conv2d_1", "c"
    std::string kind;             // "conv2d"
    std::string task;             // the coarse task that called it, "" at the top level
    std::vector<int32_t> inputs;  // the operations whose results it reads (for the critical path)
    // The cube operation whose output tiles it was computed on, in L1 (a
    // fusion group's epilogue, docs/timing-model.md §10); -1 if none.
    int32_t fused_into = -1;
};

struct Program {
    std::string source;         // the program file it was compiled from
    uint32_t max_parallel = 0;  // blocks in flight at once; 0 = all clusters
    // MAX_PARALLEL above chip.clusters puts several blocks on a cluster at
    // once (timing-model §4), each in a slot. The compiler then gives each
    // block a share of L1 and of every L0 and writes its addresses as if in
    // slot 0: a block in slot k adds k * slot_l1_bytes to its L1 addresses
    // below slot_l1_bytes (those above every slot are the on-chip tensors'
    // shared region) and k * slot_l0_bytes to its L0 addresses (relocate()).
    // 0: memories not partitioned; co-resident blocks use the same bytes.
    uint64_t slot_l1_bytes = 0;
    uint64_t slot_l0_bytes = 0;
    std::vector<TensorPlacement> tensors;
    std::vector<ProgramOp> ops;
    std::vector<CommandTag> tags;  // Command::tag indexes this; tags[0] is the empty tag
    std::vector<Block> blocks;
    // Per tensor, for a program whose strands reuse DDR bytes (a
    // workspace, docs/timing-model.md §10): the block after which a tensor
    // sharing its bytes with others holds its values (a functional run
    // reads them then: the last block of the operation, or fusion group,
    // that writes it), kNotWritten for one no block writes (an inner
    // result of a fused group, an operation without blocks), -1 for a
    // tensor with bytes of its own (read after the run).
    // Empty without a workspace. Not part of the ISA: never written to
    // program files.
    std::vector<int64_t> complete_after_block;
    static constexpr int64_t kNotWritten = -2;
    // What the compiler could not do as asked, for the report's notes (an
    // on-chip tensor it kept in DDR). Not part of the ISA: never written
    // to program files.
    std::vector<std::string> notes;
};

// Where address `addr` of space `s` of a block running in slot `slot` lies.
uint64_t relocate(const Program& p, Space s, uint64_t addr, uint32_t slot);

// Human-readable listing (`davinci-sim --dump-program`): the header (the
// program, its block count, its tensors), then each block.
std::string format_program(const Program& p);
std::string format_program_header(const Program& p, size_t blocks);
std::string format_block(const Program& p, size_t b, const Block& blk);
std::string format_command(const Program& p, const Command& c);

}  // namespace arch
