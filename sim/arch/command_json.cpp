#include "sim/arch/command_json.h"

#include "sim/arch/isa_fields.h"

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

namespace arch {

using nlohmann::json;

namespace {

using isa::IsOptional;
using isa::IsVector;
using isa::SourcePtr;

// The vector source's kind decides which of its fields are written.
template <class S>
VectorSource::Kind kind_of(const S&) {
    return VectorSource::Kind::Contiguous;
}
VectorSource::Kind kind_of(const VectorSource& s) { return s.kind; }

// ---- writing ----

template <class S>
void write_fields(json& j, const S& s);

template <class T>
json value_json(const T& v) {
    if constexpr (std::is_enum_v<T>) return isa::Names<T>::name(int(v));
    else if constexpr (IsOptional<T>::value || std::is_same_v<T, SourcePtr>) {
        json j = json::object();
        write_fields(j, *v);
        return j;
    } else if constexpr (std::is_class_v<T> && !IsVector<T>::value) {  // a nested struct: the window
        json j = json::object();
        write_fields(j, v);
        return j;
    } else if constexpr (std::is_floating_point_v<T>) {
        // JSON has no infinities (a fill of -inf, a max pool's padding):
        // they are written as the strings "inf" and "-inf" (Reader::real).
        if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
        return json(v);
    } else return json(v);  // integers, booleans, lists of numbers
}

template <class S>
void write_fields(json& j, const S& s) {
    isa::for_each_field(s, [&](const isa::Field& f, const auto& v, const auto& def) {
        if (isa::written(f, v, def, kind_of(s))) j[f.key] = value_json(v);
    });
}

// ---- reading ----

template <class S>
S read_struct(const Reader& r, const json& v, const std::string& path);

template <class T>
void read_value(const Reader& r, const json& v, const std::string& path, T& out) {
    if constexpr (std::is_same_v<T, bool>) out = r.boolean(v, path);
    else if constexpr (std::is_enum_v<T>) out = T(r.name(v, path, isa::Names<T>::count, isa::Names<T>::name));
    else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T>)
        out = T(r.unsigned_int(v, path, std::numeric_limits<T>::max()));
    else if constexpr (std::is_integral_v<T>) out = r.signed_int(v, path);
    else if constexpr (std::is_floating_point_v<T>) out = r.real(v, path);
    else if constexpr (IsVector<T>::value) {
        const json& a = r.array(v, path);
        for (size_t i = 0; i < a.size(); ++i) read_value(r, a[i], Reader::index(path, i), out.emplace_back());
    } else if constexpr (IsOptional<T>::value) out = read_struct<typename T::value_type>(r, v, path);
    else if constexpr (std::is_same_v<T, SourcePtr>)
        out = std::make_shared<const VectorSource>(read_struct<VectorSource>(r, v, path));
    else out = read_struct<T>(r, v, path);  // the window
}

// Field `key` of `s`, if it has one; `tag_count` bounds a TagIndex field.
template <class S>
bool read_field(const Reader& r, S& s, const std::string& key, const json& v, const std::string& path,
                size_t tag_count = 0) {
    bool found = false;
    isa::for_each_field(s, [&](const isa::Field& f, auto& m, const auto&) {
        if (found || key != f.key) return;
        found = true;
        read_value(r, v, path, m);
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_unsigned_v<M> && !std::is_same_v<M, bool>)
            if (f.check == isa::Check::TagIndex && m != 0 && m >= tag_count)
                r.fail(path,
                       std::to_string(m) + " is not an index into \"tags\" (" + std::to_string(tag_count) + " tags)");
    });
    return found;
}

template <class S>
const std::vector<const char*>& keys_of() {
    static const std::vector<const char*> keys = [] {
        std::vector<const char*> k;
        isa::for_each_field(isa::Fields<S>::defaults(),
                            [&](const isa::Field& f, const auto&, const auto&) { k.push_back(f.key); });
        return k;
    }();
    return keys;
}

// The keys of the object in its own (sorted) order, as im2col descriptors
// and windows have always been read: which bad field a message names first.
template <class S>
S read_by_keys(const Reader& r, const json& v, const std::string& path) {
    r.object(v, path, keys_of<S>(), isa::Fields<S>::what);
    S s;
    for (const auto& item : v.items()) read_field(r, s, item.key(), item.value(), Reader::join(path, item.key()));
    return s;
}

// The keys in the table's order, calling before(field) ahead of each.
template <class S, class Before>
void read_in_table_order(const Reader& r, const json& v, const std::string& path, S& s, Before before) {
    isa::for_each_field(s, [&](const isa::Field& f, auto& m, const auto&) {
        before(f);
        if (v.contains(f.key)) read_value(r, v.at(f.key), Reader::join(path, f.key), m);
    });
}

template <class S>
S read_struct(const Reader& r, const json& v, const std::string& path) {
    return read_by_keys<S>(r, v, path);
}

// A rearrangement and a vector source need their kind, and are read in the
// table's order; the source's dims and strides are a pair, checked before
// its window is read (the messages' order).
template <>
Rearrange read_struct<Rearrange>(const Reader& r, const json& v, const std::string& path) {
    r.object(v, path, keys_of<Rearrange>(), isa::Fields<Rearrange>::what);
    if (!v.contains("kind")) r.fail(path, "missing key \"kind\" (\"transpose\" or \"pixel_shuffle\")");
    Rearrange a;
    read_in_table_order(r, v, path, a, [](const isa::Field&) {});
    return a;
}

template <>
VectorSource read_struct<VectorSource>(const Reader& r, const json& v, const std::string& path) {
    r.object(v, path, keys_of<VectorSource>(), isa::Fields<VectorSource>::what);
    if (!v.contains("kind"))
        r.fail(path, "missing key \"kind\" (\"contiguous\", \"scalar\", \"strided\" or \"window\")");
    VectorSource s;
    read_in_table_order(r, v, path, s, [&](const isa::Field& f) {
        if (f.key == std::string("window") && s.dims.size() != s.strides.size())
            r.fail(path, "\"dims\" and \"strides\" differ in length");
    });
    return s;
}

// "op", the op's fields and the common ones: what a command may contain.
std::vector<const char*> keys_for(Opcode op) {
    std::vector<const char*> k{"op"};
    auto add = [&](const std::vector<const char*>& more) { k.insert(k.end(), more.begin(), more.end()); };
    Command c;
    c.op = op;
    isa::with_args(c, [&](const auto& args) { add(keys_of<std::decay_t<decltype(args)>>()); });
    add(keys_of<Command>());
    return k;
}

const std::vector<const char*>& command_keys(Opcode op) {
    static const std::vector<const char*> keys[] = {keys_for(Opcode::Dma), keys_for(Opcode::Matmul),
                                                    keys_for(Opcode::Vector)};
    return keys[int(op)];
}

}  // namespace

json command_json(const Command& c) {
    json j = json::object();
    isa::with_args(c, [&](const auto& args) { write_fields(j, args); });
    j["op"] = isa::Names<Opcode>::name(int(c.op));
    write_fields(j, c);
    return j;
}

Command read_command(const Reader& r, const json& v, const std::string& path, size_t tag_count) {
    if (!v.is_object()) r.fail(path, "expected an object, got " + compact(v));
    if (!v.contains("op")) r.fail(path, "missing key \"op\" (\"dma\", \"matmul\" or \"vector\")");
    Command c;
    c.op = Opcode(r.name(v.at("op"), Reader::join(path, "op"), isa::Names<Opcode>::count, isa::Names<Opcode>::name));
    const char* what =
        isa::with_args(c, [](const auto& args) { return isa::Fields<std::decay_t<decltype(args)>>::what; });
    r.object(v, path, command_keys(c.op), what);
    for (const auto& item : v.items()) {
        const std::string& k = item.key();
        const std::string p = Reader::join(path, k);
        if (k == "op" || read_field(r, c, k, item.value(), p, tag_count)) continue;
        isa::with_args(c, [&](auto& args) { read_field(r, args, k, item.value(), p); });
    }
    return c;
}

}  // namespace arch
