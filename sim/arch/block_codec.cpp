#include "sim/arch/block_codec.h"

#include "sim/arch/varint.h"

namespace arch {

namespace {

void put_source(VarintWriter& w, const std::shared_ptr<const VectorSource>& in) {
    if (!in) {
        w.u(0);
        return;
    }
    const VectorSource& v = *in;
    w.u(1 + uint64_t(v.kind));
    w.f(v.scalar);
    w.u(v.first);
    w.u(v.dims.size());
    for (uint32_t d : v.dims) w.u(d);
    w.u(v.strides.size());
    for (int64_t st : v.strides) w.s(st);
    const VectorSource::Window& win = v.window;
    for (uint32_t x : {win.height, win.width, win.depth, win.out_h, win.stride_h, win.stride_w, win.pad_h, win.pad_w,
                       win.ki, win.kj})
        w.u(x);
    w.s(win.origin);
    w.f(win.fill);
}

std::shared_ptr<const VectorSource> get_source(VarintReader& r) {
    const uint64_t kind = r.u();
    if (kind == 0) return nullptr;
    if (kind > 1 + uint64_t(VectorSource::Kind::Window)) VarintReader::corrupt();
    auto v = std::make_shared<VectorSource>();
    v->kind = VectorSource::Kind(kind - 1);
    v->scalar = r.f();
    v->first = r.u();
    v->dims.resize(r.count());
    for (uint32_t& d : v->dims) d = uint32_t(r.u());
    v->strides.resize(r.count());
    for (int64_t& st : v->strides) st = r.s();
    VectorSource::Window& win = v->window;
    for (uint32_t* x : {&win.height, &win.width, &win.depth, &win.out_h, &win.stride_h, &win.stride_w, &win.pad_h,
                        &win.pad_w, &win.ki, &win.kj})
        *x = uint32_t(r.u());
    win.origin = r.s();
    win.fill = r.f();
    return v;
}

void put_dma(VarintWriter& w, const DmaArgs& d) {
    w.u(uint64_t(d.src));
    w.u(uint64_t(d.dst));
    w.u(d.src_addr);
    w.u(d.dst_addr);
    w.u(d.rows);
    w.u(d.row_bytes);
    w.u(d.src_stride);
    w.u(d.dst_stride);
    w.u(d.convert_f32_to_f16);
    w.u(d.im2col.has_value());
    if (const auto& i = d.im2col) {
        for (uint32_t x : {i->channels, i->height, i->width, i->kh, i->kw, i->stride_h, i->stride_w, i->pad_h,
                           i->pad_w, i->out_w, i->pixel0, i->k0, i->element_bytes})
            w.u(x);
        w.u(i->channels_last);
    }
    w.u(d.rearrange.has_value());
    if (const auto& re = d.rearrange) {
        w.u(uint64_t(re->kind));
        w.u(re->element_bytes);
        w.u(re->factor);
    }
}

DmaArgs get_dma(VarintReader& r) {
    DmaArgs d;
    d.src = Space(r.u());
    d.dst = Space(r.u());
    d.src_addr = r.u();
    d.dst_addr = r.u();
    d.rows = uint32_t(r.u());
    d.row_bytes = uint32_t(r.u());
    d.src_stride = r.u();
    d.dst_stride = r.u();
    d.convert_f32_to_f16 = r.u() != 0;
    if (r.u()) {
        Im2col i;
        for (uint32_t* x : {&i.channels, &i.height, &i.width, &i.kh, &i.kw, &i.stride_h, &i.stride_w, &i.pad_h,
                            &i.pad_w, &i.out_w, &i.pixel0, &i.k0, &i.element_bytes})
            *x = uint32_t(r.u());
        i.channels_last = r.u() != 0;
        d.im2col = i;
    }
    if (r.u()) {
        Rearrange re;
        re.kind = Rearrange::Kind(r.u());
        re.element_bytes = uint32_t(r.u());
        re.factor = uint32_t(r.u());
        d.rearrange = re;
    }
    return d;
}

void put_matmul(VarintWriter& w, const MatmulArgs& m) {
    w.u(m.m);
    w.u(m.k);
    w.u(m.n);
    w.u(uint64_t(m.dtype));
    w.u(m.accumulate);
    w.u(m.b_transposed);
    w.u(m.a_addr);
    w.u(m.b_addr);
    w.u(m.c_addr);
}

MatmulArgs get_matmul(VarintReader& r) {
    MatmulArgs m;
    m.m = uint32_t(r.u());
    m.k = uint32_t(r.u());
    m.n = uint32_t(r.u());
    m.dtype = DType(r.u());
    m.accumulate = r.u() != 0;
    m.b_transposed = r.u() != 0;
    m.a_addr = r.u();
    m.b_addr = r.u();
    m.c_addr = r.u();
    return m;
}

void put_vector(VarintWriter& w, const VectorArgs& v) {
    w.u(uint64_t(v.op));
    w.u(uint64_t(v.dtype));
    w.u(v.rows);
    w.u(v.cols);
    w.u(v.src0);
    w.u(v.src1 == kNoAddress ? 0 : v.src1 + 1);  // kNoAddress would take ten bytes
    w.u(v.dst);
    put_source(w, v.in0);
    put_source(w, v.in1);
}

VectorArgs get_vector(VarintReader& r) {
    VectorArgs v;
    v.op = VectorOp(r.u());
    v.dtype = DType(r.u());
    v.rows = uint32_t(r.u());
    v.cols = uint32_t(r.u());
    v.src0 = r.u();
    const uint64_t src1 = r.u();
    v.src1 = src1 == 0 ? kNoAddress : src1 - 1;
    v.dst = r.u();
    v.in0 = get_source(r);
    v.in1 = get_source(r);
    return v;
}

void put_flags(VarintWriter& w, const std::vector<FlagId>& flags) {
    w.u(flags.size());
    for (FlagId f : flags) w.u(f);
}

std::vector<FlagId> get_flags(VarintReader& r) {
    std::vector<FlagId> flags(r.count());
    for (FlagId& f : flags) f = FlagId(r.u());
    return flags;
}

}  // namespace

void encode_block(const Block& block, std::string& out) {
    VarintWriter w(out);
    w.str(block.name);
    w.u(block.deps.size());
    for (uint32_t d : block.deps) w.u(d);
    w.u(block.drain);
    w.s(block.cluster);
    w.u(block.num_flags);
    w.u(block.streams.size());
    for (const Stream& s : block.streams) {
        w.u(uint64_t(s.engine.kind));
        w.s(s.engine.index);
        w.u(s.commands.size());
        for (const Command& c : s.commands) {
            w.u(uint64_t(c.op));
            switch (c.op) {
            case Opcode::Dma: put_dma(w, c.dma); break;
            case Opcode::Matmul: put_matmul(w, c.mm); break;
            case Opcode::Vector: put_vector(w, c.vec); break;
            }
            put_flags(w, c.waits);
            put_flags(w, c.sets);
            w.u(c.tag);
            w.u(c.issue_cycles);
        }
    }
}

Block decode_block(const char* data, size_t size) {
    VarintReader r(data, size);
    Block b;
    b.name = r.str();
    b.deps.resize(r.count());
    for (uint32_t& d : b.deps) d = uint32_t(r.u());
    b.drain = uint32_t(r.u());
    b.cluster = int32_t(r.s());
    b.num_flags = uint16_t(r.u());
    b.streams.resize(r.count());
    for (Stream& s : b.streams) {
        s.engine.kind = EngineKind(r.u());
        s.engine.index = int(r.s());
        s.commands.resize(r.count());
        for (Command& c : s.commands) {
            const uint64_t op = r.u();
            if (op > uint64_t(Opcode::Vector)) VarintReader::corrupt();
            c.op = Opcode(op);
            switch (c.op) {
            case Opcode::Dma: c.dma = get_dma(r); break;
            case Opcode::Matmul: c.mm = get_matmul(r); break;
            case Opcode::Vector: c.vec = get_vector(r); break;
            }
            c.waits = get_flags(r);
            c.sets = get_flags(r);
            c.tag = uint32_t(r.u());
            c.issue_cycles = uint32_t(r.u());
        }
    }
    if (!r.at_end()) VarintReader::corrupt();
    return b;
}

}  // namespace arch
