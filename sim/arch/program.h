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
#include <vector>

namespace arch {

enum class DType : uint8_t { Float16, Float32 };
int dtype_bytes(DType t);
const char* dtype_name(DType t);  // "float16"

enum class Space : uint8_t { DDR, L1, L0 };
const char* space_name(Space s);  // "DDR"

// The engines of one cluster. Cluster DMA engines move DDR<->L1; each cube
// has its own DMA engine (L1<->L0) and its MAC array.
enum class EngineKind : uint8_t { ClusterDma, CubeDma, Cube };

struct EngineId {
    EngineKind kind = EngineKind::ClusterDma;
    int index = 0;  // DMA engine number for ClusterDma, cube number otherwise
    bool operator==(const EngineId& o) const { return kind == o.kind && index == o.index; }
    bool operator!=(const EngineId& o) const { return !(*this == o); }
};
std::string engine_name(EngineId e);  // "dma0", "cube2.dma", "cube2"

enum class Opcode : uint8_t { Dma, Matmul };

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

using FlagId = uint16_t;

struct Command {
    Opcode op = Opcode::Dma;
    DmaArgs dma;
    MatmulArgs mm;
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

struct Program {
    std::string source;      // the program file it was compiled from
    uint32_t max_parallel = 0;  // blocks in flight at once; 0 = all clusters
    std::vector<TensorPlacement> tensors;
    std::vector<std::string> tags;  // human-readable labels, tags[0] = ""
    std::vector<Block> blocks;
};

// Human-readable listing (`davinci-sim --dump-program`).
std::string format_program(const Program& p);
std::string format_command(const Program& p, const Command& c);

}  // namespace arch
