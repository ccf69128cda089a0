// Walking the command fields declared in isa_fields.def: for every struct of
// the command ISA, `for_each_field(s, f)` calls f(field, s.member,
// default.member) for each of its rows in order, so the JSON form, the spool
// codec, the checker and docs/isa.md are loops over the table instead of
// lists of members. Also the names of every enumeration in the ISA, for the
// same readers and writers. Used inside sim/arch only (and by its doc
// generator); the rest of the project sees the plain structs of program.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/arch/program.h"

namespace arch::isa {

// The `write` and `check` columns (isa_fields.def says what each means).
enum class Write : uint8_t { Always, NonDefault, ScalarSource, StridedSource, WindowSource };
enum class Check : uint8_t { None, Positive, ElementBytes, TagIndex };

// One row of the table, less its type and default (the visitor passes the
// member and the default-constructed struct's member instead).
struct Field {
    const char* key;
    const char* member;
    Write write;
    Check check;
    const char* unit;
    const char* doc;
};

// Fields<S>: `what` names the struct in "unknown key for ..." messages and
// docs/isa.md; visit(s, o, f) calls f(field, s.member, o.member) row by row.
// Specialised below for each struct.
template <class S>
struct Fields;

#define ISA_VISIT_ROW(type, member, key, def, write, check, unit, doc) \
    f(Field{key, #member, Write::write, Check::check, unit, doc}, s.member, o.member);

#define ISA_FIELDS_BEGIN(S, WHAT)                 \
    template <>                                   \
    struct Fields<S> {                            \
        static constexpr const char* what = WHAT; \
        static const S& defaults() {              \
            static const S d{};                   \
            return d;                             \
        }                                         \
        template <class T, class F>               \
        static void visit(T& s, const S& o, F&& f) {
#define ISA_FIELDS_END \
    }                  \
    }                  \
    ;

// `what` is as the JSON reader's messages have always named each struct.
ISA_FIELDS_BEGIN(Im2col, "im2col")
#define ISA_IM2COL ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
ISA_FIELDS_BEGIN(Rearrange, "rearrange")
#define ISA_REARRANGE ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
ISA_FIELDS_BEGIN(Gather, "gather")
#define ISA_GATHER ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
ISA_FIELDS_BEGIN(DmaArgs, "a dma command")
#define ISA_DMA ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
ISA_FIELDS_BEGIN(MatmulArgs, "a matmul command")
#define ISA_MATMUL ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
ISA_FIELDS_BEGIN(VectorArgs, "a vector command")
#define ISA_VECTOR ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
ISA_FIELDS_BEGIN(VectorSource::Window, "a window")
#define ISA_WINDOW ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
ISA_FIELDS_BEGIN(VectorSource, "a vector source")
#define ISA_SOURCE ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END
// The fields every command has, whatever its op (not op and its arguments).
ISA_FIELDS_BEGIN(Command, "a command")
#define ISA_COMMAND ISA_VISIT_ROW
#include "sim/arch/isa_fields.def"
ISA_FIELDS_END

#undef ISA_FIELDS_BEGIN
#undef ISA_FIELDS_END
#undef ISA_VISIT_ROW

// f(field, s.member, default_member) for each row of s's struct.
template <class S, class F>
void for_each_field(S& s, F&& f) {
    using Plain = std::remove_const_t<S>;
    Fields<Plain>::visit(s, Fields<Plain>::defaults(), f);
}

// f(field, a.member, b.member) for each row: comparing two values.
template <class S, class F>
void for_each_field_pair(const S& a, const S& b, F&& f) {
    Fields<S>::visit(a, b, f);
}

// The arguments of a command's own op: f(c.dma), f(c.mm) or f(c.vec).
template <class C, class F>
decltype(auto) with_args(C& c, F&& f) {
    switch (c.op) {
    case Opcode::Dma: return f(c.dma);
    case Opcode::Matmul: return f(c.mm);
    case Opcode::Vector: break;
    }
    return f(c.vec);
}

// The kinds of member the table holds besides numbers, booleans and
// enumerations, for the code that handles each kind.
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <>
struct IsVector<FlagList> : std::true_type {};
using SourcePtr = std::shared_ptr<const VectorSource>;

// Names<E>: the spellings of an ISA enumeration in JSON, --dump-program and
// docs/isa.md; count values, numbered from 0.
template <class E>
struct Names;
template <>
struct Names<Space> {
    static constexpr int count = kSpaceCount;
    static const char* name(int i) { return space_name(Space(i)); }
};
template <>
struct Names<DType> {
    static constexpr int count = kDTypeCount;
    static const char* name(int i) { return dtype_name(DType(i)); }
};
template <>
struct Names<VectorOp> {
    static constexpr int count = kVectorOpCount;
    static const char* name(int i) { return vector_op_name(VectorOp(i)); }
};
template <>
struct Names<Rearrange::Kind> {
    static constexpr int count = 2;
    static const char* name(int i) { return rearrange_kind_name(Rearrange::Kind(i)); }
};
template <>
struct Names<VectorSource::Kind> {
    static constexpr int count = 4;
    static const char* name(int i) {
        static const char* const kNames[] = {"contiguous", "scalar", "strided", "window"};
        return kNames[i];
    }
};
template <>
struct Names<Opcode> {
    static constexpr int count = 3;
    static const char* name(int i) {
        static const char* const kNames[] = {"dma", "matmul", "vector"};
        return kNames[i];
    }
};

// Whether a field is written by program_to_json: `write` says when, and a
// source pointer counts as absent when it reads contiguously (null or not).
template <class T, class = void>
struct Comparable : std::false_type {};
template <class T>
struct Comparable<T, std::void_t<decltype(std::declval<const T&>() == std::declval<const T&>())>> : std::true_type {};

// Nested structs (a window) are always written, so need no comparison.
template <class T>
bool is_default(const T& v, const T& def) {
    if constexpr (Comparable<T>::value) return v == def;
    else return false;
}
inline bool is_default(const SourcePtr& v, const SourcePtr&) { return !v || v->kind == VectorSource::Kind::Contiguous; }
template <class T>
bool is_default(const std::optional<T>& v, const std::optional<T>&) {
    return !v;
}

// Whether field `f` of a struct holding `v` belongs in its JSON form.
// `kind` is the vector source's kind, for the fields only one kind reads.
template <class T>
bool written(const Field& f, const T& v, const T& def, VectorSource::Kind kind = VectorSource::Kind::Contiguous) {
    switch (f.write) {
    case Write::Always: return true;
    case Write::NonDefault: return !is_default(v, def);
    case Write::ScalarSource: return kind == VectorSource::Kind::Scalar;
    case Write::StridedSource: return kind == VectorSource::Kind::Strided;
    case Write::WindowSource: break;
    }
    return kind == VectorSource::Kind::Window;
}

}  // namespace arch::isa
