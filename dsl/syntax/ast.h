// The syntax tree of a PyPTO program. Nodes are small structs tagged with a
// kind; consumers switch on the kind and downcast with as<T>(). New syntax
// (def, for, if, with, ...) adds a kind and a struct without disturbing the
// existing ones.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dsl/support/source_location.h"

namespace dsl::ast {

// ---- expressions ----------------------------------------------------------

enum class ExprKind {
    Int,
    Float,
    Str,
    Bool,
    None,
    Name,
    Attribute,
    Call,
    Subscript,
    Tuple,
    List,
    Unary,
    Binary,
    Compare,
    BoolOp,
    IfElse,
    Dict,
    Slice,
    ListComp,
    Ellipsis,
};

struct Expr {
    const ExprKind kind;
    SourceLoc loc;  // where the expression starts

    virtual ~Expr() = default;

    template <class T>
    const T& as() const {
        return static_cast<const T&>(*this);
    }
    template <class T>
    T& as() {
        return static_cast<T&>(*this);
    }
    template <class T>
    bool is() const {
        return kind == T::kKind;
    }

protected:
    Expr(ExprKind k, SourceLoc l) : kind(k), loc(std::move(l)) {}
};
using ExprPtr = std::unique_ptr<Expr>;

// Each node names its kind once, so make<T>() and is<T>() cannot disagree.
template <ExprKind K>
struct ExprOf : Expr {
    static constexpr ExprKind kKind = K;
    explicit ExprOf(SourceLoc l) : Expr(K, std::move(l)) {}
};

struct IntLit : ExprOf<ExprKind::Int> {
    using ExprOf::ExprOf;
    int64_t value = 0;
};
struct FloatLit : ExprOf<ExprKind::Float> {
    using ExprOf::ExprOf;
    double value = 0;
};
struct StrLit : ExprOf<ExprKind::Str> {
    using ExprOf::ExprOf;
    std::string value;
};
struct BoolLit : ExprOf<ExprKind::Bool> {
    using ExprOf::ExprOf;
    bool value = false;
};
struct NoneLit : ExprOf<ExprKind::None> {
    using ExprOf::ExprOf;
};

struct Name : ExprOf<ExprKind::Name> {
    using ExprOf::ExprOf;
    std::string id;
};

struct Attribute : ExprOf<ExprKind::Attribute> {
    using ExprOf::ExprOf;
    ExprPtr value;
    std::string attr;
    SourceLoc attr_loc;
};

struct Keyword {
    std::string name;
    SourceLoc name_loc;
    ExprPtr value;
};

struct Call : ExprOf<ExprKind::Call> {
    using ExprOf::ExprOf;  // loc: start of the callee, where call errors point
    ExprPtr func;
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;
    SourceLoc open_loc;  // the '('
};

struct Subscript : ExprOf<ExprKind::Subscript> {
    using ExprOf::ExprOf;
    ExprPtr value;
    ExprPtr index;  // a Tuple for x[i, j]
    SourceLoc open_loc;
};

struct Tuple : ExprOf<ExprKind::Tuple> {
    using ExprOf::ExprOf;
    std::vector<ExprPtr> elts;
};
struct List : ExprOf<ExprKind::List> {
    using ExprOf::ExprOf;
    std::vector<ExprPtr> elts;
};

enum class UnaryOp { Neg, Pos, Not, Invert };
struct Unary : ExprOf<ExprKind::Unary> {
    using ExprOf::ExprOf;
    UnaryOp op = UnaryOp::Neg;
    ExprPtr operand;
};

enum class BinaryOp { Add, Sub, Mul, MatMul, Div, FloorDiv, Mod, Pow, LShift, RShift, BitAnd, BitOr, BitXor };
struct Binary : ExprOf<ExprKind::Binary> {
    using ExprOf::ExprOf;
    BinaryOp op = BinaryOp::Add;
    ExprPtr lhs, rhs;
    SourceLoc op_loc;  // arithmetic errors (division by zero) point here
};

enum class CmpOp { Lt, Gt, Le, Ge, Eq, Ne, In, NotIn, Is, IsNot };
// A chain `a < b <= c`: ops.size() == rest.size().
struct Compare : ExprOf<ExprKind::Compare> {
    using ExprOf::ExprOf;
    ExprPtr first;
    std::vector<CmpOp> ops;
    std::vector<SourceLoc> op_locs;
    std::vector<ExprPtr> rest;
};

enum class BoolOpKind { And, Or };
struct BoolOp : ExprOf<ExprKind::BoolOp> {
    using ExprOf::ExprOf;
    BoolOpKind op = BoolOpKind::And;
    std::vector<ExprPtr> values;
};

// `body if test else orelse`
struct IfElse : ExprOf<ExprKind::IfElse> {
    using ExprOf::ExprOf;
    ExprPtr body, test, orelse;
};

// `{k: v, ...}` in source order (duplicate keys: the last wins, as in Python).
struct Dict : ExprOf<ExprKind::Dict> {
    using ExprOf::ExprOf;
    std::vector<ExprPtr> keys, values;
};

// `lower:upper:step` inside a subscript; each part may be absent (null).
struct Slice : ExprOf<ExprKind::Slice> {
    using ExprOf::ExprOf;
    ExprPtr lower, upper, step;
};

// One `for target in iter if cond ...` clause of a comprehension.
struct Comprehension {
    ExprPtr target;
    ExprPtr iter;
    std::vector<ExprPtr> ifs;
};

// `[elt for ... in ...]`; a generator expression `(elt for ...)` parses to
// the same node: the elaborator runs everything eagerly anyway.
struct ListComp : ExprOf<ExprKind::ListComp> {
    using ExprOf::ExprOf;
    ExprPtr elt;
    std::vector<Comprehension> generators;
};

// `...`, the placeholder body of the documents' `def model(input): ...`.
struct EllipsisLit : ExprOf<ExprKind::Ellipsis> {
    using ExprOf::ExprOf;
};

const char* unary_op_spelling(UnaryOp op);    // "-", "not"
const char* binary_op_spelling(BinaryOp op);  // "//"
const char* cmp_op_spelling(CmpOp op);        // "not in"

// ---- statements ----------------------------------------------------------

enum class StmtKind {
    Import,
    Assign,
    AugAssign,
    ExprStmt,
    Pass,
    FunctionDef,
    Return,
    For,
    If,
    With,
    Break,
    Continue,
};

struct Stmt {
    const StmtKind kind;
    SourceLoc loc;

    virtual ~Stmt() = default;

    template <class T>
    const T& as() const {
        return static_cast<const T&>(*this);
    }
    template <class T>
    bool is() const {
        return kind == T::kKind;
    }

protected:
    Stmt(StmtKind k, SourceLoc l) : kind(k), loc(std::move(l)) {}
};
using StmtPtr = std::unique_ptr<Stmt>;

template <StmtKind K>
struct StmtOf : Stmt {
    static constexpr StmtKind kKind = K;
    explicit StmtOf(SourceLoc l) : Stmt(K, std::move(l)) {}
};

// `import pypto as pypo` / `import pypo` / `import pypto`; the parser
// admits no other form.
struct Import : StmtOf<StmtKind::Import> {
    using StmtOf::StmtOf;
    std::string module;  // "pypto" or "pypo"
    std::string alias;   // the name bound: "pypo", or "pypto" for a plain `import pypto`
};

// `t1 = t2 = value`: targets are Name, Attribute, Subscript, or Tuple/List of them.
struct Assign : StmtOf<StmtKind::Assign> {
    using StmtOf::StmtOf;
    std::vector<ExprPtr> targets;
    ExprPtr value;
};

struct AugAssign : StmtOf<StmtKind::AugAssign> {
    using StmtOf::StmtOf;
    ExprPtr target;  // Name, Attribute or Subscript
    BinaryOp op = BinaryOp::Add;
    SourceLoc op_loc;
    ExprPtr value;
};

struct ExprStmt : StmtOf<StmtKind::ExprStmt> {
    using StmtOf::StmtOf;
    ExprPtr value;
};
struct Pass : StmtOf<StmtKind::Pass> {
    using StmtOf::StmtOf;
};

using Block = std::vector<StmtPtr>;

struct Param {
    std::string name;
    SourceLoc loc;
    ExprPtr default_value;  // null: required
};

// `@decorator ... def name(params): body`; loc is the `def` keyword.
struct FunctionDef : StmtOf<StmtKind::FunctionDef> {
    using StmtOf::StmtOf;
    std::string name;
    SourceLoc name_loc;
    std::vector<Param> params;
    std::vector<ExprPtr> decorators;  // in source order (Python applies them bottom-up)
    Block body;
};

struct Return : StmtOf<StmtKind::Return> {
    using StmtOf::StmtOf;
    ExprPtr value;
};  // null value: None

struct For : StmtOf<StmtKind::For> {
    using StmtOf::StmtOf;
    ExprPtr target;  // Name or Tuple/List of targets
    ExprPtr iter;
    Block body;
};

// `elif` chains nest: orelse then holds a single If.
struct If : StmtOf<StmtKind::If> {
    using StmtOf::StmtOf;
    ExprPtr test;
    Block body, orelse;
};

struct WithItem {
    ExprPtr context;
    std::string name;  // `as name`, "" if absent
    SourceLoc name_loc;
};

struct With : StmtOf<StmtKind::With> {
    using StmtOf::StmtOf;
    std::vector<WithItem> items;
    Block body;
};

struct Break : StmtOf<StmtKind::Break> {
    using StmtOf::StmtOf;
};
struct Continue : StmtOf<StmtKind::Continue> {
    using StmtOf::StmtOf;
};

struct Module {
    std::shared_ptr<const SourceFile> file;
    std::vector<StmtPtr> body;
};

template <class T>
std::unique_ptr<T> make(SourceLoc loc) {
    return std::make_unique<T>(std::move(loc));
}

// A compact prefix form of the tree, for tests and debugging:
// "(assign (name c) (call (attr (name pypo) matmul) (name a) (kw tile 64)))".
std::string dump(const Expr& e);
// Compound statements print their blocks inline: "(for (name i) (call (name range) 4) (pass))".
std::string dump(const Stmt& s);
std::string dump(const Module& m);  // one statement per line

}  // namespace dsl::ast
