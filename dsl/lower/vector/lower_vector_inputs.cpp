#include "dsl/lower/vector/lower_vector_inputs.h"

#include <stdexcept>

#include "dsl/lower/placement_mismatch.h"

namespace dsl {

int64_t element_count(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

int VectorInputs::streamed(VectorStream& s, int tensor, int64_t elems_per_unit, bool share) {
    const TensorNode& t = ctx_->tensor(tensor);
    for (size_t k = 0; k < inputs_.size(); ++k)
        if (share && inputs_[k].tensor == tensor && inputs_[k].per_unit == elems_per_unit &&
            inputs_[k].compute == compute_ && (inputs_[k].how == How::Streamed || inputs_[k].how == How::OnChip))
            return int(k);
    Input in;
    in.tensor = tensor;
    in.how = How::Streamed;
    in.name = t.name, in.dtype = t.dtype, in.ddr = ctx_->ddr_addr(tensor), in.per_unit = elems_per_unit, in.op = op_;
    in.compute = compute_;
    if (ctx_->in_place(tensor)) {
        in.how = How::OnChip;
    } else {
        in.raw = int(s.buffers.size());
        s.buffers.push_back({BufferKind::Streamed, elems_per_unit * arch::dtype_bytes(t.dtype), 0});
    }
    in.cast = in.raw;
    if (t.dtype != compute_) {
        in.cast = int(s.buffers.size());
        s.buffers.push_back({BufferKind::Scratch, elems_per_unit * arch::dtype_bytes(compute_), 0});
    }
    inputs_.push_back(in);
    return int(inputs_.size() - 1);
}

int VectorInputs::resident(VectorStream& s, int tensor, int64_t extent_per_unit, std::vector<uint32_t> dims,
                           std::vector<int64_t> strides) {
    const TensorNode& t = ctx_->tensor(tensor);
    Input in;
    in.how = How::Resident;
    in.dims = std::move(dims), in.strides = std::move(strides);
    in.name = t.name, in.dtype = t.dtype, in.ddr = ctx_->ddr_addr(tensor), in.elements = element_count(t.shape);
    in.op = op_, in.compute = compute_;
    const int64_t ec = arch::dtype_bytes(compute_);
    in.raw = int(s.buffers.size());
    if (t.dtype == compute_) {
        s.buffers.push_back({BufferKind::Resident, extent_per_unit * ec, in.elements * ec});
        in.cast = in.raw;
    } else {
        s.buffers.push_back({BufferKind::Resident, 0, in.elements * arch::dtype_bytes(t.dtype)});
        in.cast = int(s.buffers.size());
        s.buffers.push_back({BufferKind::Resident, extent_per_unit * ec, in.elements * ec});
    }
    inputs_.push_back(in);
    return int(inputs_.size() - 1);
}

int VectorInputs::constant(VectorStream& s, int64_t extent_per_unit, double value, bool share) {
    Input in;
    in.how = How::Constant;
    in.value = value, in.extent = extent_per_unit, in.op = op_, in.compute = compute_;
    for (const Input& c : inputs_)
        if (share && c.how == How::Constant && c.extent == extent_per_unit && c.compute == compute_)
            in.raw = in.cast = c.raw;
    if (in.raw < 0) {
        in.raw = in.cast = int(s.buffers.size());
        s.buffers.push_back({BufferKind::Resident, extent_per_unit * arch::dtype_bytes(compute_), 0});
    }
    inputs_.push_back(in);
    return int(inputs_.size() - 1);
}

void VectorInputs::prologue(ChunkCommands& cc, const BufferAddrs& a) const {
    for (const Input& in : inputs_) {
        if (in.how != How::Resident) continue;
        const uint64_t bytes = uint64_t(in.elements) * uint64_t(arch::dtype_bytes(in.dtype));
        cc.loads.push_back({load_dma(in.ddr, a[size_t(in.raw)], bytes), in.name + " -> L1", in.op});
        if (in.cast != in.raw)
            cc.compute.push_back(
                {cast_args(in.dtype, in.compute, 1, in.elements, a[size_t(in.raw)], a[size_t(in.cast)]),
                 out_ + ": cast " + in.name, in.op});
    }
}

void VectorInputs::chunk(ChunkCommands& cc, int64_t first, int64_t n, const BufferAddrs& a) const {
    // Over a part of a partitioned tensor (LowerContext::window) a unit is a
    // run of the part's columns, rows of the tensor apart.
    const LowerContext::Window& w = ctx_->window;
    for (const Input& in : inputs_) {
        if (in.how != How::Streamed && in.how != How::OnChip) continue;
        const uint64_t e = uint64_t(arch::dtype_bytes(in.dtype));
        const uint64_t offset = uint64_t(ctx_->unit_elem(first, in.per_unit)) * e;
        const uint64_t at = in.how == How::OnChip ? ctx_->place_at(in.tensor, offset) : a[size_t(in.raw)];
        if (in.how == How::Streamed) {
            arch::DmaArgs d = load_dma(in.ddr + offset, at, uint64_t(n * in.per_unit) * e);
            if (w.strided()) {
                d.rows = uint32_t(n), d.row_bytes = uint32_t(uint64_t(in.per_unit) * e);
                d.src_stride = uint64_t(w.row_elems) * e, d.dst_stride = d.row_bytes;
            }
            cc.loads.push_back({d, in.name + " -> L1", in.op});
        }
        if (in.cast != in.raw)
            cc.compute.push_back(
                {with_sources(cast_args(in.dtype, in.compute, n, in.per_unit, at, a[size_t(in.cast)]),
                              in.how == How::OnChip && w.strided()
                                  ? strided_source(0, {uint32_t(w.rows), uint32_t(w.cols)}, {w.row_elems, 1})
                                  : arch::VectorSource{},
                              {}),
                 out_ + ": cast " + in.name, in.op});
    }
}

uint64_t VectorInputs::addr(int h, const BufferAddrs& a) const {
    const Input& in = inputs_[size_t(h)];
    if (in.how == How::OnChip && in.cast == in.raw) {
        // A lowering that reads its input at one address for every chunk
        // (softmax, the norms, rope) cannot follow a tensor kept in the
        // Unified Buffers, which each chunk finds at its own row: that
        // tensor is kept in DDR instead (dsl/lower/program/lower.cpp).
        if (ctx_->plan.in_ub(in.tensor))
            throw PlacementMismatch{in.tensor, "'" + out_ +
                                                   "' reads it by a lowering that takes it at one address "
                                                   "for every chunk, not row by row"};
        throw std::logic_error("VectorInputs::addr of an on-chip input: use addr_at");
    }
    return a[size_t(in.cast)];
}

uint64_t VectorInputs::addr_at(int h, const BufferAddrs& a, int64_t first) const {
    const Input& in = inputs_[size_t(h)];
    if (in.how == How::OnChip && in.cast == in.raw)
        return ctx_->place_at(in.tensor,
                              uint64_t(ctx_->unit_elem(first, in.per_unit)) * uint64_t(arch::dtype_bytes(in.dtype)));
    return a[size_t(in.cast)];
}

arch::VectorSource VectorInputs::source(int h, int64_t first_element) const {
    const Input& in = inputs_[size_t(h)];
    if (in.how == How::Constant) return scalar_source(in.value);
    if (in.how == How::Resident) return strided_source(uint64_t(first_element), in.dims, in.strides);
    // An on-chip input over column parts, read in place: its rows are the
    // tensor's apart (addr_at gives the chunk's first element).
    const LowerContext::Window& w = ctx_->window;
    if (in.how == How::OnChip && in.cast == in.raw && w.strided())
        return strided_source(0, {uint32_t(w.rows), uint32_t(w.cols)}, {w.row_elems, 1});
    return {};
}

std::vector<int64_t> broadcast_strides(const std::vector<int64_t>& operand, const std::vector<int64_t>& out) {
    std::vector<int64_t> strides(out.size(), 0);
    int64_t step = 1;
    for (size_t k = 0; k < operand.size() && k < out.size(); ++k) {
        const size_t o = out.size() - 1 - k, i = operand.size() - 1 - k;
        if (operand[i] != 1) strides[o] = step;
        step *= operand[i];
    }
    return strides;
}

std::vector<uint32_t> dims_of(const std::vector<int64_t>& shape) {
    std::vector<uint32_t> d;
    for (int64_t x : shape) d.push_back(uint32_t(x));
    return d;
}

arch::VectorSource scalar_source(double value) {
    arch::VectorSource s;
    s.kind = arch::VectorSource::Kind::Scalar;
    s.scalar = value;
    return s;
}

arch::VectorSource strided_source(uint64_t first, std::vector<uint32_t> dims, std::vector<int64_t> strides) {
    arch::VectorSource s;
    s.kind = arch::VectorSource::Kind::Strided;
    s.first = first, s.dims = std::move(dims), s.strides = std::move(strides);
    return s;
}

arch::VectorSource per_row_source(int64_t rows, int64_t cols) {
    return strided_source(0, {uint32_t(rows), uint32_t(cols)}, {1, 0});
}

arch::VectorSource per_column_source(int64_t rows, int64_t cols) {
    return strided_source(0, {uint32_t(rows), uint32_t(cols)}, {0, 1});
}

arch::VectorArgs with_sources(arch::VectorArgs v, const arch::VectorSource& in0, const arch::VectorSource& in1) {
    // Contiguous is the default: no descriptor to keep.
    auto keep = [](const arch::VectorSource& s) {
        return s.kind == arch::VectorSource::Kind::Contiguous ? nullptr : std::make_shared<const arch::VectorSource>(s);
    };
    v.in0 = keep(in0), v.in1 = keep(in1);
    return v;
}

std::string VectorInputs::label(arch::VectorOp op) const { return out_ + ": " + arch::vector_op_name(op); }

void store_units(ChunkCommands& cc, const LowerContext& ctx, int out, int64_t elems_per_unit, int64_t first, int64_t n,
                 uint64_t src, int32_t op) {
    const TensorNode& t = ctx.tensor(out);
    if (ctx.in_place(out)) return;
    const uint64_t e = uint64_t(arch::dtype_bytes(t.dtype));
    arch::DmaArgs d = store_dma(src, ctx.ddr_addr(out) + uint64_t(ctx.unit_elem(first, elems_per_unit)) * e,
                                uint64_t(n * elems_per_unit) * e);
    if (ctx.window.strided()) {
        d.rows = uint32_t(n), d.row_bytes = uint32_t(uint64_t(elems_per_unit) * e);
        d.src_stride = d.row_bytes, d.dst_stride = uint64_t(ctx.window.row_elems) * e;
    }
    cc.stores.push_back({d, t.name + " -> DDR", op});
}

uint64_t output_addr(const LowerContext& ctx, int out, int64_t elems_per_unit, int64_t first, uint64_t buffer) {
    if (!ctx.in_place(out)) return buffer;
    if (ctx.window.strided()) throw std::logic_error("an on-chip output over column parts: " + ctx.tensor(out).name);
    return ctx.place_at(
        out, uint64_t(ctx.unit_elem(first, elems_per_unit)) * uint64_t(arch::dtype_bytes(ctx.tensor(out).dtype)));
}

std::function<ChunkCommands(int64_t, int64_t, const BufferAddrs&)> VectorInputs::prologue_fn() const {
    VectorInputs in = *this;
    return [in](int64_t, int64_t, const BufferAddrs& a) {
        ChunkCommands cc;
        in.prologue(cc, a);
        return cc;
    };
}

}  // namespace dsl
