#include "sim/arch/program.h"

#include "sim/arch/config.h"

#include <sstream>

namespace arch {

const VectorSource& VectorArgs::source(int i) const {
    const std::shared_ptr<const VectorSource>& s = i == 0 ? in0 : i == 1 ? in1 : in2;
    return s ? *s : contiguous_source();
}

int dtype_bytes(DType t) {
    switch (t) {
    case DType::Float32:
    case DType::Int32: return 4;
    case DType::Int8: return 1;
    case DType::Float16:
    case DType::BFloat16: break;
    }
    return 2;
}

const char* dtype_name(DType t) {
    switch (t) {
    case DType::Float16: return "float16";
    case DType::Float32: return "float32";
    case DType::BFloat16: return "bfloat16";
    case DType::Int8: return "int8";
    case DType::Int32: return "int32";
    }
    return "?";
}

const char* space_name(Space s) {
    switch (s) {
    case Space::DDR: return "DDR";
    case Space::L1: return "L1";
    case Space::L0: return "L0";
    case Space::UB: return "UB";
    }
    return "?";
}

const char* side_name(Side s) { return s == Side::Vector ? "the vector cores" : "the cube core"; }

Side block_side(const Block& b) {
    for (const Stream& s : b.streams)
        if (!s.commands.empty()) return engine_side(s.engine.kind);
    return Side::Cube;
}

const char* rearrange_kind_name(Rearrange::Kind k) {
    return k == Rearrange::Kind::Transpose ? "transpose" : "pixel_shuffle";
}

std::string engine_name(EngineId e) {
    switch (e.kind) {
    case EngineKind::ClusterDma: return "dma" + std::to_string(e.index);
    case EngineKind::CubeDma: return "cube" + std::to_string(e.index) + ".dma";
    case EngineKind::Cube: return "cube" + std::to_string(e.index);
    case EngineKind::Vector: return "vector" + std::to_string(e.index);
    case EngineKind::VectorLoad: return "vector" + std::to_string(e.index) + ".load";
    case EngineKind::VectorStore: return "vector" + std::to_string(e.index) + ".store";
    }
    return "?";
}

std::pair<int, int64_t> engine_order(EngineId e) {
    switch (e.kind) {
    case EngineKind::ClusterDma: return {0, e.index};
    case EngineKind::CubeDma: return {1, 2 * int64_t(e.index)};
    case EngineKind::Cube: return {1, 2 * int64_t(e.index) + 1};
    case EngineKind::VectorLoad: return {2, 3 * int64_t(e.index)};
    case EngineKind::Vector: return {2, 3 * int64_t(e.index) + 1};
    case EngineKind::VectorStore: return {2, 3 * int64_t(e.index) + 2};
    }
    return {3, e.index};
}

const char* vector_op_name(VectorOp op) {
    switch (op) {
// A table expansion, left as written.
// clang-format off
#define ISA_VECTOR_OP(name, key, sources, reduces, doc) \
    case VectorOp::name: return key;
#include "sim/arch/isa_fields.def"
        // clang-format on
    }
    return "?";
}

bool vector_op_is_binary(VectorOp op) {
    switch (op) {
// A table expansion, left as written.
// clang-format off
#define ISA_VECTOR_OP(name, key, sources, reduces, doc) \
    case VectorOp::name: return sources == 2;
#include "sim/arch/isa_fields.def"
        // clang-format on
    }
    return false;
}

int vector_op_sources(VectorOp op) {
    switch (op) {
// A table expansion, left as written.
// clang-format off
#define ISA_VECTOR_OP(name, key, sources, reduces, doc) \
    case VectorOp::name: return sources;
#include "sim/arch/isa_fields.def"
        // clang-format on
    }
    return 1;
}

bool vector_op_takes_int(VectorOp op) {
    switch (op) {
    case VectorOp::Div:
    case VectorOp::Gelu:
    case VectorOp::Sigmoid:
    case VectorOp::Tanh:
    case VectorOp::Exp:
    case VectorOp::Sqrt: return false;
    default: return true;
    }
}

bool vector_op_is_reduce(VectorOp op) {
    switch (op) {
// A table expansion, left as written.
// clang-format off
#define ISA_VECTOR_OP(name, key, sources, reduces, doc) \
    case VectorOp::name: return reduces;
#include "sim/arch/isa_fields.def"
        // clang-format on
    }
    return false;
}

DType VectorArgs::dst_dtype() const {
    if (op == VectorOp::Cast) return cast_to;
    if (op == VectorOp::Argmax) return DType::Int32;
    return dtype;
}

uint64_t VectorArgs::dst_bytes() const {
    const uint64_t e = uint64_t(dtype_bytes(dst_dtype()));
    return (vector_op_is_reduce(op) ? uint64_t(rows) : elements()) * e;
}

Space vector_space(const Config& c) { return c.vector_buffer() ? Space::UB : Space::L1; }

std::vector<EngineId> cluster_engines(const Config& c) {
    std::vector<EngineId> v;
    for (int i = 0; i < c.dma_engines; ++i) v.push_back({EngineKind::ClusterDma, i});
    for (int i = 0; i < c.cubes_per_cluster; ++i) {
        v.push_back({EngineKind::CubeDma, i});
        v.push_back({EngineKind::Cube, i});
    }
    for (int i = 0; i < c.vector_units; ++i) {
        if (c.vector_buffer()) v.push_back({EngineKind::VectorLoad, i});
        v.push_back({EngineKind::Vector, i});
        if (c.vector_buffer()) v.push_back({EngineKind::VectorStore, i});
    }
    return v;
}

size_t engine_slot(const Config& c, uint32_t cluster, EngineId e) {
    const size_t dmas = size_t(c.dma_engines), cubes = size_t(c.cubes_per_cluster);
    const size_t per_vector = 1 + size_t(c.vector_dmas_per_unit()), loads = c.vector_buffer() ? 1 : 0;
    const size_t base = size_t(cluster) * (dmas + 2 * cubes + per_vector * size_t(c.vector_units));
    const size_t vectors = base + dmas + 2 * cubes;
    switch (e.kind) {
    case EngineKind::ClusterDma: return base + size_t(e.index);
    case EngineKind::CubeDma: return base + dmas + 2 * size_t(e.index);
    case EngineKind::Cube: return base + dmas + 2 * size_t(e.index) + 1;
    case EngineKind::VectorLoad: return vectors + per_vector * size_t(e.index);
    case EngineKind::VectorStore: return vectors + per_vector * size_t(e.index) + 2;
    case EngineKind::Vector: break;
    }
    return vectors + per_vector * size_t(e.index) + loads;
}

const char* engine_kind_name(EngineKind k) {
    switch (k) {
    case EngineKind::ClusterDma: return "dma";
    case EngineKind::CubeDma: return "cube_dma";
    case EngineKind::Cube: return "cube";
    case EngineKind::VectorLoad: return "vector_load";
    case EngineKind::VectorStore: return "vector_store";
    case EngineKind::Vector: break;
    }
    return "vector";
}

namespace {

std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}

void append_flags(std::ostringstream& os, const char* what, const FlagList& flags) {
    if (flags.empty()) return;
    os << "  " << what << "(";
    for (size_t i = 0; i < flags.size(); ++i) os << (i ? "," : "") << "f" << flags[i];
    os << ")";
}

// "a" or "a,b" when the two differ.
std::string pair(uint32_t a, uint32_t b) {
    return a == b ? std::to_string(a) : std::to_string(a) + "," + std::to_string(b);
}

// "im2col 3x3/s1/p1 of 64x6x56 ow 56 at pixel 0, k 0 2B" (an NHWC slab: "of 6x56x64 NHWC")
std::string format_im2col(const Im2col& i) {
    std::ostringstream os;
    os << "im2col " << i.kh << "x" << i.kw << "/s" << pair(i.stride_h, i.stride_w) << "/p" << pair(i.pad_h, i.pad_w);
    if (i.dilation_h != 1 || i.dilation_w != 1) os << "/d" << pair(i.dilation_h, i.dilation_w);
    os << " of ";
    if (i.channels_last) os << i.height << "x" << i.width << "x" << i.channels << " NHWC";
    else os << i.channels << "x" << i.height << "x" << i.width;
    os << " ow " << i.out_w << " at pixel " << i.pixel0 << ", k " << i.k0 << " " << i.element_bytes << "B";
    return os.str();
}

}  // namespace

std::string format_command(const Program& p, const Command& c) {
    std::ostringstream os;
    if (c.op == Opcode::Dma) {
        const DmaArgs& d = c.dma;
        os << "DMA    " << space_name(d.src) << ":" << hex(d.src_addr) << " -> " << space_name(d.dst) << ":"
           << hex(d.dst_addr) << "  " << d.rows << "x" << d.row_bytes << "B";
        if (d.rows > 1) os << " stride " << d.src_stride << "/" << d.dst_stride;
        if (d.convert_f32_to_f16) os << (d.narrow_to == DType::BFloat16 ? " f32->bf16" : " f32->f16");
        if (d.im2col) os << " " << format_im2col(*d.im2col);
        if (d.gather) os << " gather ids L1:" << hex(d.gather->index_addr) << " of " << d.gather->table_rows << " rows";
        if (d.rearrange) {
            os << " " << rearrange_kind_name(d.rearrange->kind);
            if (d.rearrange->kind == Rearrange::Kind::PixelShuffle) os << " x" << d.rearrange->factor;
            os << " " << d.rearrange->element_bytes << "B";
        }
    } else if (c.op == Opcode::Vector) {
        const VectorArgs& v = c.vec;
        os << "VECTOR " << vector_op_name(v.op) << " " << v.rows << "x" << v.cols << " " << dtype_name(v.dtype);
        if (v.op == VectorOp::Cast) os << "->" << dtype_name(v.cast_to);
        os << "  L1:" << hex(v.src0) << format_vector_source(v.source(0));
        if (v.src1 != kNoAddress) os << ", L1:" << hex(v.src1) << format_vector_source(v.source(1));
        if (v.src2 != kNoAddress) os << ", L1:" << hex(v.src2) << format_vector_source(v.source(2));
        os << " -> L1:" << hex(v.dst);
    } else {
        const MatmulArgs& m = c.mm;
        os << "MATMUL " << m.m << "x" << m.k << "x" << m.n << " " << dtype_name(m.dtype) << "  C:" << hex(m.c_addr)
           << (m.accumulate ? " += " : " = ") << "A:" << hex(m.a_addr) << " * B:" << hex(m.b_addr)
           << (m.b_transposed ? "^T" : "");
        // §7.2: a systolic fold schedule's continuations.
        if (m.fold_continues) os << "  continues fold";
        if (m.schedule_continues) os << "  schedule continues";
    }
    if (c.issue_cycles) os << "  issue " << c.issue_cycles;
    append_flags(os, "wait", c.waits);
    append_flags(os, "set", c.sets);
    if (c.tag != 0 && c.tag < p.tags.size()) os << "  ; " << p.tags[c.tag].label;
    return os.str();
}

uint64_t relocate(const Program& p, Space s, uint64_t addr, uint32_t slot) {
    if (s == Space::L1 && addr < p.slot_l1_bytes) return addr + uint64_t(slot) * p.slot_l1_bytes;
    if (s == Space::L0) return addr + uint64_t(slot) * p.slot_l0_bytes;
    return addr;  // DDR, and the Unified Buffers: not partitioned (co-resident blocks share them)
}

std::string format_program(const Program& p) {
    std::string out = format_program_header(p, p.blocks.size());
    for (size_t b = 0; b < p.blocks.size(); ++b) out += format_block(p, b, p.blocks[b]);
    return out;
}

std::string format_program_header(const Program& p, size_t blocks) {
    std::ostringstream os;
    os << "program " << p.source << ": " << blocks << " blocks";
    if (p.max_parallel) os << ", max_parallel " << p.max_parallel;
    if (p.slot_l1_bytes) os << ", slots of " << p.slot_l1_bytes << " B of L1 and " << p.slot_l0_bytes << " B of L0";
    os << "\n";
    for (const TensorPlacement& t : p.tensors) {
        os << "tensor " << t.name << " (";
        for (size_t i = 0; i < t.shape.size(); ++i) os << (i ? ", " : "") << t.shape[i];
        os << ") " << dtype_name(t.dtype) << " " << t.role << " at ";
        if (t.l1_addr >= 0) os << "L1:" << hex(uint64_t(t.l1_addr));       // the same in every cluster
        else if (t.ub_addr >= 0) os << "UB:" << hex(uint64_t(t.ub_addr));  // the same in every vector unit
        else os << "DDR:" << hex(t.ddr_addr);
        os << ", " << t.bytes << " B\n";
    }
    return os.str();
}

std::string format_block(const Program& p, size_t b, const Block& blk) {
    std::ostringstream os;
    os << "\nblock " << b << " " << blk.name << ": " << blk.num_flags << " flags";
    if (!blk.deps.empty()) {
        os << ", after";
        for (uint32_t d : blk.deps) os << " " << d;
    }
    if (blk.drain) os << ", after blocks 0-" << blk.drain - 1 << " drain";
    if (blk.cluster != Block::kAnyCluster) os << ", on cluster" << blk.cluster;
    os << "\n";
    for (const Stream& s : blk.streams) {
        os << "  " << engine_name(s.engine) << ": " << s.commands.size() << " commands\n";
        for (size_t i = 0; i < s.commands.size(); ++i)
            os << "    " << i << ": " << format_command(p, s.commands[i]) << "\n";
    }
    return os.str();
}

}  // namespace arch
