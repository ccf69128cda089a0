// The command ISA: the seam between the compiler (dsl/) and the hardware
// model (sim/hw/). Plain data, printable, consumed by the SystemC model and by
// the reference oracle alike.
//
// A Program is a list of Blocks. The dispatcher hands each block to one
// cluster; inside the block every engine of that cluster runs its own
// in-order command stream, and engines synchronise only through the block's
// flags (counting semaphores: set at a command's end, waited before a
// command's start). Timing is specified in docs/timing-model.md.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace arch {

enum class DType : uint8_t { Float16, Float32 };
int dtype_bytes(DType t);
const char* dtype_name(DType t);  // "float16"

enum class Space : uint8_t { DDR, L1, L0 };
const char* space_name(Space s);  // "DDR"

// The engines of one cluster. Cluster DMA engines move DDR<->L1; each cube
// has its own DMA engine (L1<->L0) and its MAC array; vector units compute
// on L1 directly.
enum class EngineKind : uint8_t { ClusterDma, CubeDma, Cube, Vector };

struct EngineId {
    EngineKind kind = EngineKind::ClusterDma;
    int index = 0;  // DMA engine number for ClusterDma, vector unit number for Vector, cube number otherwise
    bool operator==(const EngineId& o) const { return kind == o.kind && index == o.index; }
    bool operator!=(const EngineId& o) const { return !(*this == o); }
};
std::string engine_name(EngineId e);  // "dma0", "cube2.dma", "cube2", "vector0"

// The order engines are listed in (streams, reports, CSV rows): cluster DMA
// engines, then cube by cube its DMA engine and its MAC array, then the
// vector units. A sort key, not an index: only comparisons are meaningful.
std::pair<int, int64_t> engine_order(EngineId e);

enum class Opcode : uint8_t { Dma, Matmul, Vector };

// A 2D copy: `rows` rows of `row_bytes` bytes (the bytes that cross the link),
// strides in bytes. A DMA between DDR and L1 crosses the DDR link; between L1
// and L0 the cluster's L1 port. `convert` narrows float32 to float16 in flight
// (the cube's accumulator written back as float16): addresses and strides
// count the destination's bytes, the source holds twice as many.
struct DmaArgs {
    Space src = Space::DDR;
    Space dst = Space::L1;
    uint64_t src_addr = 0;
    uint64_t dst_addr = 0;
    uint32_t rows = 0;
    uint32_t row_bytes = 0;
    uint64_t src_stride = 0;
    uint64_t dst_stride = 0;
    bool convert_f32_to_f16 = false;
    uint64_t bytes() const { return uint64_t(rows) * row_bytes; }
};

// C[m x n] (+)= A[m x k] * B[k x n] with all three in the cube's L0.
// The accumulator C is float32.
struct MatmulArgs {
    uint32_t m = 0, k = 0, n = 0;
    DType dtype = DType::Float16;  // operand type
    bool accumulate = false;       // add into C instead of overwriting it
    uint64_t a_addr = 0, b_addr = 0, c_addr = 0;  // L0 byte addresses
    uint64_t macs() const { return uint64_t(m) * k * n; }
};

// What a vector unit computes. Element-wise ops map each element (binary
// ones combine src0 and src1 element by element); the reductions reduce each
// row of `cols` elements to one value; Transpose writes the cols x rows
// transpose.
enum class VectorOp : uint8_t {
    Copy, Add, Sub, Mul, Div, Maximum, Relu, Gelu, Sigmoid, Tanh, Exp, Sqrt, Cast, ReduceSum, ReduceMax, Transpose
};
constexpr int kVectorOpCount = int(VectorOp::Transpose) + 1;
const char* vector_op_name(VectorOp op);  // "add", "reduce_sum"
bool vector_op_is_binary(VectorOp op);     // reads src1 too: add, sub, mul, div, maximum
bool vector_op_is_reduce(VectorOp op);     // reduce_sum, reduce_max

// No address: the value of VectorArgs::src1 for ops with one source.
constexpr uint64_t kNoAddress = ~uint64_t{0};

// A vector command on a rows x cols matrix of `dtype` elements, row-major and
// contiguous in L1 (byte addresses). For Cast, `dtype` names the SOURCE type
// and the destination holds the other one (float16 <-> float32): its region
// has rows * cols * dtype_bytes(other) bytes. Reductions write `rows`
// elements of `dtype`.
struct VectorArgs {
    VectorOp op = VectorOp::Copy;
    DType dtype = DType::Float16;
    uint32_t rows = 0, cols = 0;
    uint64_t src0 = 0;
    uint64_t src1 = kNoAddress;  // binary ops only
    uint64_t dst = 0;
    uint64_t elements() const { return uint64_t(rows) * cols; }
    uint64_t src_bytes() const { return elements() * uint64_t(dtype_bytes(dtype)); }
    uint64_t dst_bytes() const;
};

using FlagId = uint16_t;

struct Command {
    Opcode op = Opcode::Dma;
    DmaArgs dma;
    MatmulArgs mm;
    VectorArgs vec;
    std::vector<FlagId> waits;  // each consumes one token before the start
    std::vector<FlagId> sets;   // each adds one token at the end
    uint32_t tag = 0;           // index into Program::tags: what this moves/computes
};

struct Stream {
    EngineId engine;
    std::vector<Command> commands;
};

struct Block {
    std::string name;
    std::vector<uint32_t> deps;  // blocks that must finish before this starts
    uint32_t drain = 0;          // also waits for every block numbered below this (print's global drain)
    uint16_t num_flags = 0;
    std::vector<Stream> streams;  // at most one per engine
};

struct TensorPlacement {
    std::string name;
    std::vector<int64_t> shape;
    DType dtype = DType::Float16;
    uint64_t ddr_addr = 0;
    uint64_t bytes = 0;
    std::string role;  // "input", "output", "intermediate"
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
    std::string name;  // its output tensor: "conv2d_1", "c"
    std::string kind;  // "conv2d"
    std::string task;  // the coarse task that called it, "" at the top level
};

struct Program {
    std::string source;      // the program file it was compiled from
    uint32_t max_parallel = 0;  // blocks in flight at once; 0 = all clusters
    std::vector<TensorPlacement> tensors;
    std::vector<ProgramOp> ops;
    std::vector<CommandTag> tags;  // Command::tag indexes this; tags[0] is the empty tag
    std::vector<Block> blocks;
};

// Human-readable listing (`davinci-sim --dump-program`).
std::string format_program(const Program& p);
std::string format_command(const Program& p, const Command& c);

}  // namespace arch
