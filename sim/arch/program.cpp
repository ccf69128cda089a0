#include "sim/arch/program.h"

#include <sstream>

namespace arch {

int dtype_bytes(DType t) { return t == DType::Float32 ? 4 : 2; }

const char* dtype_name(DType t) { return t == DType::Float32 ? "float32" : "float16"; }

const char* space_name(Space s) {
    switch (s) {
    case Space::DDR: return "DDR";
    case Space::L1: return "L1";
    case Space::L0: return "L0";
    }
    return "?";
}

std::string engine_name(EngineId e) {
    switch (e.kind) {
    case EngineKind::ClusterDma: return "dma" + std::to_string(e.index);
    case EngineKind::CubeDma: return "cube" + std::to_string(e.index) + ".dma";
    case EngineKind::Cube: return "cube" + std::to_string(e.index);
    }
    return "?";
}

namespace {

std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}

void append_flags(std::ostringstream& os, const char* what, const std::vector<FlagId>& flags) {
    if (flags.empty()) return;
    os << "  " << what << "(";
    for (size_t i = 0; i < flags.size(); ++i) os << (i ? "," : "") << "f" << flags[i];
    os << ")";
}

}  // namespace

std::string format_command(const Program& p, const Command& c) {
    std::ostringstream os;
    if (c.op == Opcode::Dma) {
        const DmaArgs& d = c.dma;
        os << "DMA    " << space_name(d.src) << ":" << hex(d.src_addr) << " -> " << space_name(d.dst) << ":"
           << hex(d.dst_addr) << "  " << d.rows << "x" << d.row_bytes << "B";
        if (d.rows > 1) os << " stride " << d.src_stride << "/" << d.dst_stride;
        if (d.convert_f32_to_f16) os << " f32->f16";
    } else {
        const MatmulArgs& m = c.mm;
        os << "MATMUL " << m.m << "x" << m.k << "x" << m.n << " " << dtype_name(m.dtype) << "  C:" << hex(m.c_addr)
           << (m.accumulate ? " += " : " = ") << "A:" << hex(m.a_addr) << " * B:" << hex(m.b_addr);
    }
    append_flags(os, "wait", c.waits);
    append_flags(os, "set", c.sets);
    if (c.tag != 0 && c.tag < p.tags.size()) os << "  ; " << p.tags[c.tag];
    return os.str();
}

std::string format_program(const Program& p) {
    std::ostringstream os;
    os << "program " << p.source << ": " << p.blocks.size() << " blocks";
    if (p.max_parallel) os << ", max_parallel " << p.max_parallel;
    os << "\n";
    for (const TensorPlacement& t : p.tensors) {
        os << "tensor " << t.name << " (";
        for (size_t i = 0; i < t.shape.size(); ++i) os << (i ? ", " : "") << t.shape[i];
        os << ") " << dtype_name(t.dtype) << " " << t.role << " at DDR:" << hex(t.ddr_addr) << ", " << t.bytes
           << " B\n";
    }
    for (size_t b = 0; b < p.blocks.size(); ++b) {
        const Block& blk = p.blocks[b];
        os << "\nblock " << b << " " << blk.name << ": " << blk.num_flags << " flags";
        if (!blk.deps.empty()) {
            os << ", after";
            for (uint32_t d : blk.deps) os << " " << d;
        }
        os << "\n";
        for (const Stream& s : blk.streams) {
            os << "  " << engine_name(s.engine) << ": " << s.commands.size() << " commands\n";
            for (size_t i = 0; i < s.commands.size(); ++i)
                os << "    " << i << ": " << format_command(p, s.commands[i]) << "\n";
        }
    }
    return os.str();
}

}  // namespace arch
