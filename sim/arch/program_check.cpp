#include "sim/arch/program_check.h"

#include "sim/arch/ceil_div.h"
#include "sim/arch/cube_cost.h"
#include "sim/arch/isa_fields.h"
#include "sim/arch/wait_cycle.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

namespace arch {

namespace {

struct Where {
    size_t block;
    const Stream* stream;
    size_t command;
};

[[noreturn]] void fail(const Where& w, const std::string& why) {
    std::string msg = "block " + std::to_string(w.block);
    if (w.stream) msg += ", " + engine_name(w.stream->engine) + " command " + std::to_string(w.command);
    throw ProgramError("invalid program: " + msg + ": " + why);
}

// What addresses a block may use. With several blocks per cluster (§4) and
// partitioned memories, a block's L1 addresses lie in its slot, [0, slot_l1),
// or in the on-chip tensors' region above every slot, [slots * slot_l1, L1);
// its L0 addresses in [0, slot_l0).
struct Bounds {
    const Config& config;
    uint64_t ddr = 0, l1 = 0, l0 = 0, ub = 0;
    uint64_t slots = 1, slot_l1 = 0, slot_l0 = 0;

    Bounds(const Program& p, const Config& c)
        : config(c),
          ddr(uint64_t(c.ddr_bytes())),
          l1(uint64_t(c.l1_bytes())),
          l0(uint64_t(c.l0_bytes())),
          ub(uint64_t(c.ub_bytes())),
          slots(uint64_t(blocks_per_cluster(p, c))),
          slot_l1(p.slot_l1_bytes),
          slot_l0(p.slot_l0_bytes) {}

    uint64_t capacity(Space s) const { return s == Space::DDR ? ddr : s == Space::L1 ? l1 : s == Space::L0 ? l0 : ub; }
};

// A 2D region [addr, addr + (rows-1)*stride + row_bytes) must lie in the space.
void check_region(const Where& w, const Bounds& b, Space s, uint64_t addr, uint64_t rows, uint64_t row_bytes,
                  uint64_t stride, const char* what) {
    uint64_t span = 0, end = 0;
    if (__builtin_mul_overflow(rows - 1, stride, &span) || __builtin_add_overflow(addr, span, &end) ||
        __builtin_add_overflow(end, row_bytes, &end))
        fail(w, std::string(what) + " region ends beyond byte " + std::to_string(~uint64_t{0}) + ", beyond " +
                    space_name(s) + " capacity " + std::to_string(b.capacity(s)));
    if (end > b.capacity(s))
        fail(w, std::string(what) + " region ends at byte " + std::to_string(end) + ", beyond " + space_name(s) +
                    " capacity " + std::to_string(b.capacity(s)));
    if (s == Space::L1 && b.slot_l1 && addr < b.slots * b.slot_l1 && (addr >= b.slot_l1 || end > b.slot_l1))
        fail(w, std::string(what) + " region [" + std::to_string(addr) + ", " + std::to_string(end) +
                    ") of L1 is neither in the block's slot [0, " + std::to_string(b.slot_l1) +
                    ") nor above every slot (from " + std::to_string(b.slots * b.slot_l1) + ")");
    if (s == Space::L0 && b.slot_l0 && end > b.slot_l0)
        fail(w, std::string(what) + " region ends at byte " + std::to_string(end) +
                    " of L0, beyond the block's slot of " + std::to_string(b.slot_l0) + " bytes");
}

bool link_allowed(EngineKind k, const DmaArgs& d) {
    auto is = [&](Space a, Space b) { return d.src == a && d.dst == b; };
    if (k == EngineKind::ClusterDma) return is(Space::DDR, Space::L1) || is(Space::L1, Space::DDR);
    if (k == EngineKind::CubeDma) return is(Space::L1, Space::L0) || is(Space::L0, Space::L1);
    if (k == EngineKind::VectorLoad) return is(Space::DDR, Space::UB);
    if (k == EngineKind::VectorStore) return is(Space::UB, Space::DDR);
    return false;
}

// The checks of one field alone, from the `check` column of isa_fields.def.
// Each struct's message stays at its call below, worded as it always was.

template <class T>
constexpr bool is_number = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Whether every Positive field of `s` is above 0.
template <class S>
bool positive_fields(const S& s) {
    bool ok = true;
    isa::for_each_field(s, [&](const isa::Field& f, const auto& v, const auto&) {
        if constexpr (is_number<std::decay_t<decltype(v)>>) ok = ok && (f.check != isa::Check::Positive || v > 0);
    });
    return ok;
}

// The first ElementBytes field of `s` that is neither 2 nor 4 (null if
// none), with its value in `value`.
template <class S>
const char* bad_element_bytes(const S& s, uint64_t& value) {
    const char* bad = nullptr;
    isa::for_each_field(s, [&](const isa::Field& f, const auto& v, const auto&) {
        if constexpr (is_number<std::decay_t<decltype(v)>>)
            if (!bad && f.check == isa::Check::ElementBytes && v != 2 && v != 4) bad = f.key, value = uint64_t(v);
    });
    return bad;
}

// The im2col descriptor (program.h): a cube DMA engine generating a tile of
// the im2col matrix from an input slab in L1. Beyond its one-field checks,
// these are rules of the convolution's geometry, between several fields
// and the DMA's own: written out, as no table column could say them.
void check_im2col(const Where& w, const Bounds& c, EngineKind k, const DmaArgs& d) {
    const Im2col& i = *d.im2col;
    if (k != EngineKind::CubeDma || d.src != Space::L1 || d.dst != Space::L0)
        fail(w, "im2col addressing is only done by a cube DMA engine loading L1 -> L0");
    if (d.convert_f32_to_f16 || d.rearrange) fail(w, "im2col cannot be combined with another conversion");
    if (!positive_fields(i))
        fail(w, "im2col needs positive channels, height, width, kernel, stride, dilation and out_w");
    uint64_t bad = 0;
    if (const char* key = bad_element_bytes(i, bad))
        fail(w, "im2col " + std::string(key) + " must be 2 or 4, got " + std::to_string(bad));
    if (d.row_bytes % i.element_bytes)
        fail(w, "im2col row of " + std::to_string(d.row_bytes) + " bytes is not whole elements");
    if (d.src_stride != 0) fail(w, "im2col reads its slab by the descriptor: src_stride must be 0");
    uint64_t cols = d.row_bytes / i.element_bytes, k_total = uint64_t(i.channels) * i.kh * i.kw;
    if (i.k0 + cols > k_total)
        fail(w, "im2col columns " + std::to_string(i.k0) + ".." + std::to_string(i.k0 + cols) + " exceed the " +
                    std::to_string(k_total) + " patch elements of the slab");
    // A window may start less than a stride right of the slab (rounding='ceil'), as out_rows() below it.
    if (uint64_t(i.out_w - 1) * i.stride_w >= uint64_t(i.width) + i.pad_w + i.stride_w - 1)
        fail(w, "im2col out_w " + std::to_string(i.out_w) + " has windows starting right of the slab");
    uint64_t pixels = i.out_rows() * i.out_w;
    if (i.pixel0 + uint64_t(d.rows) > pixels)
        fail(w, "im2col pixels " + std::to_string(i.pixel0) + ".." + std::to_string(i.pixel0 + uint64_t(d.rows)) +
                    " exceed the " + std::to_string(pixels) + " output pixels of the slab");
    check_region(w, c, Space::L1, d.src_addr, 1, i.slab_bytes(), 0, "im2col slab");
}

// A gather reads its table rows from DDR into L1 and its ids from L1; its
// source region is the whole table (any row may be read).
void check_gather(const Where& w, const Bounds& c, EngineKind k, const DmaArgs& d) {
    const Gather& g = *d.gather;
    if (k != EngineKind::ClusterDma || d.src != Space::DDR || d.dst != Space::L1)
        fail(w, "a gather is a cluster DMA engine's DDR -> L1 command");
    if (d.convert_f32_to_f16 || d.im2col || d.rearrange) fail(w, "a gather cannot be combined with another conversion");
    if (!positive_fields(g)) fail(w, "gather of a table of 0 rows");
    if (g.table_rows > 1 && d.src_stride < d.row_bytes) fail(w, "gather table stride smaller than its row");
    check_region(w, c, Space::DDR, d.src_addr, g.table_rows, d.row_bytes, d.src_stride, "gathered table");
    check_region(w, c, Space::L1, g.index_addr, 1, uint64_t(d.rows) * 4, 0, "gather ids");
}

// A cluster DMA engine's in-flight transpose or pixel shuffle (program.h);
// the factor's rule depends on the kind, the rest on the DMA's shape.
void check_rearrange(const Where& w, EngineKind k, const DmaArgs& d) {
    const Rearrange& r = *d.rearrange;
    const std::string what = rearrange_kind_name(r.kind);
    if (k != EngineKind::ClusterDma) fail(w, "only a cluster DMA engine can " + what + " in flight");
    if (d.convert_f32_to_f16) fail(w, what + " cannot be combined with another conversion");
    uint64_t bad = 0;
    if (const char* key = bad_element_bytes(r, bad))
        fail(w, what + " " + key + " must be 2 or 4, got " + std::to_string(bad));
    if (r.kind == Rearrange::Kind::Transpose) {
        if (r.factor != 0) fail(w, "transpose takes no factor");
        if (d.row_bytes % r.element_bytes)
            fail(w, "transpose row of " + std::to_string(d.row_bytes) + " bytes is not whole elements");
        if (d.row_bytes / r.element_bytes > 1 && d.dst_stride < uint64_t(d.rows) * r.element_bytes)
            fail(w, "transpose destination stride smaller than its row of " +
                        std::to_string(uint64_t(d.rows) * r.element_bytes) + " bytes");
    } else {
        if (r.factor == 0) fail(w, "pixel_shuffle needs a factor");
        if (d.rows % r.factor || d.row_bytes % (uint64_t(r.factor) * r.element_bytes))
            fail(w, "pixel_shuffle x" + std::to_string(r.factor) + " does not divide " + std::to_string(d.rows) + "x" +
                        std::to_string(d.row_bytes) + "B into whole planes");
    }
}

void check_vector(const Where& w, const Bounds& c, const VectorArgs& v) {
    if (w.stream->engine.kind != EngineKind::Vector) fail(w, "only a vector unit executes VECTOR");
    if (!positive_fields(v)) fail(w, "empty VECTOR (rows and cols must be positive)");
    const std::string op = vector_op_name(v.op);
    const int sources = vector_op_sources(v.op);
    if (sources >= 2 && v.src1 == kNoAddress) fail(w, "vector " + op + " needs a second source (src1)");
    if (sources < 2 && v.src1 != kNoAddress) fail(w, "vector " + op + " takes one source, but src1 is given");
    if (sources == 3 && v.src2 == kNoAddress) fail(w, "vector " + op + " needs a third source (src2)");
    if (sources < 3 && v.src2 != kNoAddress)
        fail(w, "vector " + op + " takes " + std::to_string(sources) + " source" + (sources == 1 ? "" : "s") +
                    ", but src2 is given");
    if (v.op == VectorOp::Cast && v.cast_to == v.dtype)
        fail(w,
             std::string("vector cast from ") + dtype_name(v.dtype) + " to itself (cast_to must name another dtype)");
    if (dtype_is_int(v.dtype) && !vector_op_takes_int(v.op))
        fail(w, "vector " + op + " takes float elements, got " + dtype_name(v.dtype));
    if (v.op != VectorOp::Cast && v.cast_to != VectorArgs{}.cast_to)
        fail(w, "vector " + op + " takes no cast_to (only cast does)");
    // A source reads what its descriptor reaches (a broadcast row statistic
    // of n rows reads n elements, wherever in L1 or the UB it is kept).
    const uint64_t e = uint64_t(dtype_bytes(v.dtype));
    auto reached = [&](int i) { return source_elements_reached(v.source(i), v.elements()) * e; };
    const Space s = vector_space(c.config);
    check_region(w, c, s, v.src0, 1, reached(0), 0, "first source");
    if (v.src1 != kNoAddress) check_region(w, c, s, v.src1, 1, reached(1), 0, "second source");
    if (v.src2 != kNoAddress) check_region(w, c, s, v.src2, 1, reached(2), 0, "third source");
    check_region(w, c, s, v.dst, 1, v.dst_bytes(), 0, "destination");
}

void check_command(const Where& w, const Bounds& c, const Command& cmd, uint16_t num_flags) {
    EngineKind k = w.stream->engine.kind;
    for (FlagId f : cmd.waits)
        if (f >= num_flags)
            fail(w, "waits on flag f" + std::to_string(f) + " but the block has " + std::to_string(num_flags));
    for (FlagId f : cmd.sets)
        if (f >= num_flags)
            fail(w, "sets flag f" + std::to_string(f) + " but the block has " + std::to_string(num_flags));
    if (cmd.op == Opcode::Dma) {
        const DmaArgs& d = cmd.dma;
        if (k == EngineKind::Cube) fail(w, "a cube cannot execute DMA commands");
        if (k == EngineKind::Vector) fail(w, "a vector unit cannot execute DMA commands");
        if (!link_allowed(k, d))
            fail(w, std::string("engine cannot move ") + space_name(d.src) + " -> " + space_name(d.dst));
        if (!positive_fields(d)) fail(w, "empty DMA transfer");
        // TLM-2.0 payload lengths are 32-bit: one command moves less than 4 GiB.
        if (d.bytes() > 0xffffffffull)
            fail(w, "DMA transfer of " + std::to_string(d.bytes()) + " bytes exceeds 4 GiB - 1");
        if (d.im2col) check_im2col(w, c, k, d);
        if (d.rearrange) check_rearrange(w, k, d);
        if (d.gather) check_gather(w, c, k, d);
        const bool transpose = d.rearrange && d.rearrange->kind == Rearrange::Kind::Transpose;
        const bool shuffle = d.rearrange && d.rearrange->kind == Rearrange::Kind::PixelShuffle;
        // The descriptors define their own source (im2col, pixel_shuffle) or
        // destination (transpose) shapes; the strides of the rest apply.
        bool src_strided = !d.im2col && !shuffle && !d.gather, dst_strided = !transpose;
        if (d.rows > 1 && ((src_strided && d.src_stride < d.row_bytes * (d.convert_f32_to_f16 ? 2u : 1u)) ||
                           (dst_strided && d.dst_stride < d.row_bytes)))
            fail(w, "DMA stride smaller than its row");
        if (d.convert_f32_to_f16 && !(d.src == Space::L0 && d.dst == Space::L1))
            fail(w, "float32->float16 conversion is only done writing L0 back to L1");
        if (d.narrow_to != DmaArgs{}.narrow_to && !d.convert_f32_to_f16)
            fail(w, "narrow_to is only for a float32 conversion (convert_f32_to_f16)");
        if (d.narrow_to != DType::Float16 && d.narrow_to != DType::BFloat16)
            fail(w, std::string("narrow_to must be float16 or bfloat16, got ") + dtype_name(d.narrow_to));
        uint64_t src_row = d.convert_f32_to_f16 ? uint64_t(d.row_bytes) * 2 : d.row_bytes;
        if (shuffle) check_region(w, c, d.src, d.src_addr, 1, d.bytes(), 0, "source");
        else if (!d.im2col && !d.gather) check_region(w, c, d.src, d.src_addr, d.rows, src_row, d.src_stride, "source");
        if (transpose) {
            uint64_t e = d.rearrange->element_bytes;
            check_region(w, c, d.dst, d.dst_addr, d.row_bytes / e, d.rows * e, d.dst_stride, "destination");
        } else {
            check_region(w, c, d.dst, d.dst_addr, d.rows, d.row_bytes, d.dst_stride, "destination");
        }
    } else if (cmd.op == Opcode::Vector) {
        check_vector(w, c, cmd.vec);
    } else {
        const MatmulArgs& m = cmd.mm;
        if (k != EngineKind::Cube) fail(w, "only a cube executes MATMUL");
        if (!positive_fields(m)) fail(w, "empty MATMUL");
        if (!matmul_dtype_ok(m.dtype))
            fail(w, std::string("MATMUL operands of ") + dtype_name(m.dtype) +
                        ": the cube multiplies float16, float32, bfloat16 or int8");
        uint64_t eb = uint64_t(dtype_bytes(m.dtype));
        check_region(w, c, Space::L0, m.a_addr, 1, uint64_t(m.m) * m.k * eb, 0, "A operand");
        check_region(w, c, Space::L0, m.b_addr, 1, uint64_t(m.k) * m.n * eb, 0, "B operand");
        check_region(w, c, Space::L0, m.c_addr, 1, uint64_t(m.m) * m.n * 4, 0, "C accumulator");
    }
}

// §7.2: what a MATMUL's fold fields may say, given the MATMUL before it in
// its stream (nullptr if none).
void check_folds(const Where& w, const Config& c, const MatmulArgs& m, const MatmulArgs* prev) {
    if (!m.fold_continues && !m.schedule_continues) return;
    if (!c.systolic())
        fail(w,
             "MATMUL continues a fold or a fold schedule, but the fractal cube has no folds (cube.dataflow is "
             "fractal)");
    if (!m.fold_continues) return;
    const SystolicFolds f = systolic_folds(c, m);
    if (f.folds() != 1)
        fail(w, "MATMUL " + std::to_string(m.m) + "x" + std::to_string(m.k) + "x" + std::to_string(m.n) +
                    " continues a fold but is " + std::to_string(f.folds()) + " folds of the " +
                    std::to_string(c.mac_rows) + "x" + std::to_string(c.mac_cols) + " array");
    if (!prev) fail(w, "MATMUL continues a fold, but no MATMUL comes before it in the stream");
    const SystolicFolds g = systolic_folds(c, *prev);
    if (g.sr != f.sr || g.sc != f.sc || prev->dtype != m.dtype)
        fail(w,
             "MATMUL continues a fold, but the MATMUL before it in the stream has another spatial extent or "
             "dtype (" +
                 std::to_string(prev->m) + "x" + std::to_string(prev->k) + "x" + std::to_string(prev->n) + " " +
                 dtype_name(prev->dtype) + ")");
}

int64_t engine_limit(EngineKind k, const Config& c) {
    switch (k) {
    case EngineKind::ClusterDma: return c.dma_engines;
    case EngineKind::Vector: return c.vector_units;
    case EngineKind::VectorLoad:
    case EngineKind::VectorStore: return c.vector_buffer() ? c.vector_units : 0;
    case EngineKind::CubeDma:
    case EngineKind::Cube: break;
    }
    return c.cubes_per_cluster;
}

}  // namespace

int64_t blocks_in_flight(const Program& p, const Config& c) {
    return p.max_parallel ? int64_t(p.max_parallel) : c.clusters;
}

int64_t clusters_in_use(const Program& p, const Config& c) { return std::min(blocks_in_flight(p, c), c.clusters); }

int64_t blocks_per_cluster(const Program& p, const Config& c) { return ceil_div(blocks_in_flight(p, c), c.clusters); }

void check_program(const Program& p, const Config& c) {
    check_program_header(p, c);
    for (size_t b = 0; b < p.blocks.size(); ++b) check_block(p, c, b, p.blocks[b]);
}

void check_program_header(const Program& p, const Config& c) {
    // Each block on a cluster needs its share of L1, at least 1 KiB, as
    // pypo.config.MAX_PARALLEL does (and the model state per slot).
    const int64_t most_slots = std::max<int64_t>(1, c.l1_kib);
    if (blocks_per_cluster(p, c) > most_slots)
        throw ProgramError("invalid program: max_parallel " + std::to_string(p.max_parallel) + " puts " +
                           std::to_string(blocks_per_cluster(p, c)) + " blocks on a cluster at once; at most " +
                           std::to_string(most_slots) + " can be (one per KiB of L1)");
    const Bounds bounds(p, c);
    if (bounds.slots > 1 && c.flag_latency_cycles < 1)
        throw ProgramError("invalid program: max_parallel " + std::to_string(p.max_parallel) + " puts " +
                           std::to_string(bounds.slots) + " blocks on a cluster at once, which needs " +
                           "sync.flag_latency_cycles >= 1 (an engine chooses among its blocks' commands a cycle "
                           "after their flags are set)");
    if ((p.slot_l1_bytes || p.slot_l0_bytes) &&
        (!p.slot_l1_bytes || !p.slot_l0_bytes || bounds.slots * p.slot_l1_bytes > bounds.l1 ||
         bounds.slots * p.slot_l0_bytes > bounds.l0))
        throw ProgramError("invalid program: slots of " + std::to_string(p.slot_l1_bytes) + " bytes of L1 and " +
                           std::to_string(p.slot_l0_bytes) + " bytes of L0 for " + std::to_string(bounds.slots) +
                           " blocks per cluster do not fit L1 (" + std::to_string(bounds.l1) + " bytes) and L0 (" +
                           std::to_string(bounds.l0) + " bytes)");
}

void check_block(const Program& p, const Config& c, size_t b, const Block& blk) {
    const Bounds bounds(p, c);
    if (blk.drain > b) fail({b, nullptr, 0}, "drains blocks up to " + std::to_string(blk.drain) + ", not all earlier");
    // Dispatch uses clusters 0 .. P-1 (§4): a block pinned beyond would never run.
    if (blk.cluster != Block::kAnyCluster && blk.cluster >= clusters_in_use(p, c))
        fail({b, nullptr, 0}, "runs on cluster" + std::to_string(blk.cluster) + ", but only clusters 0-" +
                                  std::to_string(clusters_in_use(p, c) - 1) + " run blocks");
    for (uint32_t d : blk.deps)
        if (d >= b) fail({b, nullptr, 0}, "depends on block " + std::to_string(d) + ", which is not an earlier block");
    // Each flag must have one setting engine and at most one waiting
    // engine, so the k-th wait always consumes the k-th set: the timing
    // then cannot depend on which engine the simulator happens to run first.
    std::vector<int> setter(blk.num_flags, -1), waiter(blk.num_flags, -1);
    std::vector<uint64_t> sets(blk.num_flags, 0), waits(blk.num_flags, 0);
    for (size_t s = 0; s < blk.streams.size(); ++s) {
        const Stream& st = blk.streams[s];
        Where w{b, &st, 0};
        if (is_vector_dma(st.engine.kind) && !c.vector_buffer())
            fail(w,
                 "engine does not exist on this hardware (a vector unit has load and store engines only with "
                 "its own Unified Buffer, vector.buffer_kib > 0)");
        if (st.engine.index < 0 || st.engine.index >= engine_limit(st.engine.kind, c))
            fail(w, "engine does not exist on this hardware");
        for (size_t o = 0; o < s; ++o)
            if (blk.streams[o].engine == st.engine) fail(w, "engine has two streams in one block");
        if (c.vector_separate_cores && !st.commands.empty() && engine_side(st.engine.kind) != block_side(blk))
            fail(w, std::string("engine is on ") + side_name(engine_side(st.engine.kind)) +
                        ", the block's first engine with commands on " + side_name(block_side(blk)) +
                        ": with vector.separate_cores a block runs on one side of the cluster");
        const MatmulArgs* prev_matmul = nullptr;
        for (size_t i = 0; i < st.commands.size(); ++i) {
            w.command = i;
            const Command& cmd = st.commands[i];
            check_command(w, bounds, cmd, blk.num_flags);
            if (cmd.op == Opcode::Matmul) {
                check_folds(w, c, cmd.mm, prev_matmul);
                prev_matmul = &cmd.mm;
            }
            for (FlagId f : cmd.sets) {
                if (setter[f] >= 0 && setter[f] != int(s))
                    fail(w, "flag f" + std::to_string(f) + " is set by two engines");
                setter[f] = int(s);
                ++sets[f];
            }
            for (FlagId f : cmd.waits) {
                if (waiter[f] >= 0 && waiter[f] != int(s))
                    fail(w, "flag f" + std::to_string(f) + " is waited on by two engines");
                waiter[f] = int(s);
                ++waits[f];
            }
        }
    }
    for (uint16_t f = 0; f < blk.num_flags; ++f)
        if (waits[f] > sets[f])
            fail({b, nullptr, 0}, "flag f" + std::to_string(f) + " is waited on " + std::to_string(waits[f]) +
                                      " times but set only " + std::to_string(sets[f]) + " times");
    if (!waits_can_be_met(blk))
        fail({b, nullptr, 0}, "its flag waits form a cycle, so it can never finish: " + find_wait_cycle(blk));
}

}  // namespace arch
