#include "sim/arch/block_codec.h"

#include "sim/arch/isa_fields.h"
#include "sim/arch/varint.h"

#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

namespace arch {

namespace {

using isa::IsOptional;
using isa::IsVector;
using isa::SourcePtr;

// Each command field, in the table's order (isa_fields.def), by its type:
// unsigned integers as their difference from the field's default (wrapping),
// so a field at its default takes one byte whatever the default (a vector
// command's absent src1 is all ones); enumerations by number; optional and
// shared parts as a presence byte and then their own fields.

template <class S>
void put_fields(VarintWriter& w, const S& s);
template <class S>
void get_fields(VarintReader& r, S& s);

template <class T>
void put(VarintWriter& w, const T& v, const T& def) {
    if constexpr (std::is_same_v<T, bool>) w.u(v);
    else if constexpr (std::is_enum_v<T>) w.u(uint64_t(v));
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) w.u(T(v - def));
    else if constexpr (std::is_integral_v<T>) w.s(v);
    else if constexpr (std::is_floating_point_v<T>) w.f(v);
    else if constexpr (IsVector<T>::value) {
        w.u(v.size());
        for (const auto& x : v) put(w, x, typename T::value_type{});
    } else if constexpr (IsOptional<T>::value || std::is_same_v<T, SourcePtr>) {
        w.u(bool(v));
        if (v) put_fields(w, *v);
    } else put_fields(w, v);  // a nested struct: the window
}

template <class T>
void get(VarintReader& r, T& v, const T& def) {
    if constexpr (std::is_same_v<T, bool>) v = r.u() != 0;
    else if constexpr (std::is_enum_v<T>) {
        const uint64_t x = r.u();
        if (x >= uint64_t(isa::Names<T>::count)) VarintReader::corrupt();
        v = T(x);
    } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>) v = T(def + T(r.u()));
    else if constexpr (std::is_integral_v<T>) v = r.s();
    else if constexpr (std::is_floating_point_v<T>) v = r.f();
    else if constexpr (IsVector<T>::value) {
        v.resize(r.count());
        for (auto& x : v) get(r, x, typename T::value_type{});
    } else if constexpr (IsOptional<T>::value) {
        if (!r.u()) return;
        typename T::value_type x;
        get_fields(r, x);
        v = std::move(x);
    } else if constexpr (std::is_same_v<T, SourcePtr>) {
        if (!r.u()) return;
        VectorSource x;
        get_fields(r, x);
        v = std::make_shared<const VectorSource>(std::move(x));
    } else get_fields(r, v);
}

template <class S>
void put_fields(VarintWriter& w, const S& s) {
    isa::for_each_field(s, [&](const isa::Field&, const auto& v, const auto& def) { put(w, v, def); });
}

template <class S>
void get_fields(VarintReader& r, S& s) {
    isa::for_each_field(s, [&](const isa::Field&, auto& v, const auto& def) { get(r, v, def); });
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
            isa::with_args(c, [&](const auto& args) { put_fields(w, args); });
            put_fields(w, c);
        }
    }
}

Block decode_block(const char* data, size_t size) {
    Block b;
    decode_block_into(data, size, b);
    return b;
}

void decode_block_into(const char* data, size_t size, Block& b) {
    static const Command kDefault;
    VarintReader r(data, size);
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
            c = kDefault;  // a reused command: the other opcodes' arguments and absent parts at their defaults
            const uint64_t op = r.u();
            if (op > uint64_t(Opcode::Vector)) VarintReader::corrupt();
            c.op = Opcode(op);
            isa::with_args(c, [&](auto& args) { get_fields(r, args); });
            get_fields(r, c);
        }
    }
    if (!r.at_end()) VarintReader::corrupt();
}

}  // namespace arch
