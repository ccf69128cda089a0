// Builders for hand-written arch::Programs, shared by the SystemC model's
// tests (tests/hw) and the oracle's (tests/oracle).
#pragma once

#include <string>
#include <vector>

#include "sim/arch/program.h"

namespace testprog {

using arch::EngineId;
using arch::EngineKind;
using arch::FlagId;
using arch::Space;

inline EngineId dma_engine(int j) { return {EngineKind::ClusterDma, j}; }
inline EngineId cube_dma(int i) { return {EngineKind::CubeDma, i}; }
inline EngineId cube(int i) { return {EngineKind::Cube, i}; }
inline EngineId vector_unit(int i) { return {EngineKind::Vector, i}; }
inline EngineId vector_load(int i) { return {EngineKind::VectorLoad, i}; }
inline EngineId vector_store(int i) { return {EngineKind::VectorStore, i}; }

// A DMA of `bytes` bytes (one row) from `src` to `dst`.
inline arch::Command dma(Space src, Space dst, uint32_t bytes, std::vector<FlagId> waits = {},
                         std::vector<FlagId> sets = {}) {
    arch::Command c;
    c.op = arch::Opcode::Dma;
    c.dma.src = src;
    c.dma.dst = dst;
    c.dma.rows = 1;
    c.dma.row_bytes = bytes;
    c.dma.src_stride = bytes;
    c.dma.dst_stride = bytes;
    c.waits = std::move(waits);
    c.sets = std::move(sets);
    return c;
}

inline arch::Command load(uint32_t bytes, std::vector<FlagId> waits = {}, std::vector<FlagId> sets = {}) {
    return dma(Space::DDR, Space::L1, bytes, std::move(waits), std::move(sets));
}

inline arch::Command to_l0(uint32_t bytes, std::vector<FlagId> waits = {}, std::vector<FlagId> sets = {}) {
    return dma(Space::L1, Space::L0, bytes, std::move(waits), std::move(sets));
}

inline arch::Command matmul(uint32_t m, uint32_t k, uint32_t n, arch::DType t = arch::DType::Float16,
                            std::vector<FlagId> waits = {}, std::vector<FlagId> sets = {}) {
    arch::Command c;
    c.op = arch::Opcode::Matmul;
    c.mm.m = m;
    c.mm.k = k;
    c.mm.n = n;
    c.mm.dtype = t;
    c.waits = std::move(waits);
    c.sets = std::move(sets);
    return c;
}

// A VECTOR command on a rows x cols matrix: sources at L1 0 (and 0x10000 for
// binary ops and select, select's condition at 0x30000), destination at
// 0x20000: inside the default 256 KiB L1 for up to 64 KiB of source data.
inline arch::Command vec(arch::VectorOp op, uint32_t rows, uint32_t cols, arch::DType t = arch::DType::Float16,
                         std::vector<FlagId> waits = {}, std::vector<FlagId> sets = {}) {
    arch::Command c;
    c.op = arch::Opcode::Vector;
    c.vec.op = op;
    c.vec.dtype = t;
    c.vec.rows = rows;
    c.vec.cols = cols;
    c.vec.src0 = 0;
    c.vec.src1 = arch::vector_op_sources(op) >= 2 ? 0x10000 : arch::kNoAddress;
    c.vec.src2 = arch::vector_op_sources(op) == 3 ? 0x30000 : arch::kNoAddress;  // select's condition
    c.vec.dst = 0x20000;
    // A cast goes to the other of float16 and float32 (cast() for any pair).
    if (op == arch::VectorOp::Cast)
        c.vec.cast_to = t == arch::DType::Float32 ? arch::DType::Float16 : arch::DType::Float32;
    c.waits = std::move(waits);
    c.sets = std::move(sets);
    return c;
}

// A VECTOR cast from `from` to `to`, placed as vec() places its command.
inline arch::Command cast(uint32_t rows, uint32_t cols, arch::DType from, arch::DType to) {
    arch::Command c = vec(arch::VectorOp::Cast, rows, cols, from);
    c.vec.cast_to = to;
    return c;
}

inline arch::Stream stream(EngineId e, std::vector<arch::Command> cmds) {
    arch::Stream s;
    s.engine = e;
    s.commands = std::move(cmds);
    return s;
}

inline arch::Block block(std::vector<arch::Stream> streams, uint16_t num_flags = 0, std::vector<uint32_t> deps = {}) {
    arch::Block b;
    b.streams = std::move(streams);
    b.num_flags = num_flags;
    b.deps = std::move(deps);
    return b;
}

inline arch::Program program(std::vector<arch::Block> blocks, uint32_t max_parallel = 0) {
    arch::Program p;
    p.tags = {arch::CommandTag{}};
    p.max_parallel = max_parallel;
    p.blocks = std::move(blocks);
    for (size_t i = 0; i < p.blocks.size(); ++i) p.blocks[i].name = "b" + std::to_string(i);
    return p;
}

}  // namespace testprog
