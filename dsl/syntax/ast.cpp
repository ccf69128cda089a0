#include "dsl/syntax/ast.h"

#include <cstdio>

namespace dsl::ast {

const char* unary_op_spelling(UnaryOp op) {
    switch (op) {
    case UnaryOp::Neg: return "-";
    case UnaryOp::Pos: return "+";
    case UnaryOp::Not: return "not";
    case UnaryOp::Invert: return "~";
    }
    return "?";
}

const char* binary_op_spelling(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::MatMul: return "@";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "**";
    case BinaryOp::LShift: return "<<";
    case BinaryOp::RShift: return ">>";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::BitXor: return "^";
    }
    return "?";
}

const char* cmp_op_spelling(CmpOp op) {
    switch (op) {
    case CmpOp::Lt: return "<";
    case CmpOp::Gt: return ">";
    case CmpOp::Le: return "<=";
    case CmpOp::Ge: return ">=";
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::In: return "in";
    case CmpOp::NotIn: return "not in";
    case CmpOp::Is: return "is";
    case CmpOp::IsNot: return "is not";
    }
    return "?";
}

namespace {

std::string quote(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') out += "\\n";
        else out += c;
    }
    return out + "\"";
}

std::string opt(const ExprPtr& e) { return e ? dump(*e) : "_"; }

std::string block(const Block& b) {
    std::string out;
    for (const auto& s : b) out += " " + dump(*s);
    return out;
}

std::string seq(const char* head, const std::vector<ExprPtr>& elts) {
    std::string out = std::string("(") + head;
    for (const auto& e : elts) out += " " + dump(*e);
    return out + ")";
}

}  // namespace

std::string dump(const Expr& e) {
    switch (e.kind) {
    case ExprKind::Int: return std::to_string(e.as<IntLit>().value);
    case ExprKind::Float: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", e.as<FloatLit>().value);
        return buf;
    }
    case ExprKind::Str: return quote(e.as<StrLit>().value);
    case ExprKind::Bool: return e.as<BoolLit>().value ? "True" : "False";
    case ExprKind::None: return "None";
    case ExprKind::Name: return "(name " + e.as<Name>().id + ")";
    case ExprKind::Attribute: {
        const auto& a = e.as<Attribute>();
        return "(attr " + dump(*a.value) + " " + a.attr + ")";
    }
    case ExprKind::Call: {
        const auto& c = e.as<Call>();
        std::string out = "(call " + dump(*c.func);
        for (const auto& a : c.args) out += " " + dump(*a);
        for (const auto& k : c.keywords) out += " (kw " + k.name + " " + dump(*k.value) + ")";
        return out + ")";
    }
    case ExprKind::Subscript: {
        const auto& s = e.as<Subscript>();
        return "(index " + dump(*s.value) + " " + dump(*s.index) + ")";
    }
    case ExprKind::Tuple: return seq("tuple", e.as<Tuple>().elts);
    case ExprKind::List: return seq("list", e.as<List>().elts);
    case ExprKind::Unary: {
        const auto& u = e.as<Unary>();
        return std::string("(") + unary_op_spelling(u.op) + " " + dump(*u.operand) + ")";
    }
    case ExprKind::Binary: {
        const auto& b = e.as<Binary>();
        return std::string("(") + binary_op_spelling(b.op) + " " + dump(*b.lhs) + " " + dump(*b.rhs) + ")";
    }
    case ExprKind::Compare: {
        const auto& c = e.as<Compare>();
        std::string out = "(compare " + dump(*c.first);
        for (size_t i = 0; i < c.ops.size(); ++i)
            out += std::string(" ") + cmp_op_spelling(c.ops[i]) + " " + dump(*c.rest[i]);
        return out + ")";
    }
    case ExprKind::BoolOp: {
        const auto& b = e.as<BoolOp>();
        return seq(b.op == BoolOpKind::And ? "and" : "or", b.values);
    }
    case ExprKind::IfElse: {
        const auto& i = e.as<IfElse>();
        return "(if " + dump(*i.test) + " " + dump(*i.body) + " " + dump(*i.orelse) + ")";
    }
    case ExprKind::Dict: {
        const auto& d = e.as<Dict>();
        std::string out = "(dict";
        for (size_t k = 0; k < d.keys.size(); ++k) out += " " + dump(*d.keys[k]) + ":" + dump(*d.values[k]);
        return out + ")";
    }
    case ExprKind::Slice: {
        const auto& s = e.as<Slice>();
        return "(slice " + opt(s.lower) + " " + opt(s.upper) + " " + opt(s.step) + ")";
    }
    case ExprKind::ListComp: {
        const auto& c = e.as<ListComp>();
        std::string out = "(listcomp " + dump(*c.elt);
        for (const auto& g : c.generators) {
            out += " (for " + dump(*g.target) + " " + dump(*g.iter);
            for (const auto& i : g.ifs) out += " (if " + dump(*i) + ")";
            out += ")";
        }
        return out + ")";
    }
    case ExprKind::Ellipsis: return "...";
    }
    return "?";
}

std::string dump(const Stmt& s) {
    switch (s.kind) {
    case StmtKind::Import: {
        const auto& i = s.as<Import>();
        return "(import " + i.module + " " + i.alias + ")";
    }
    case StmtKind::Assign: {
        const auto& a = s.as<Assign>();
        std::string out = "(assign";
        for (const auto& t : a.targets) out += " " + dump(*t);
        return out + " " + dump(*a.value) + ")";
    }
    case StmtKind::AugAssign: {
        const auto& a = s.as<AugAssign>();
        return std::string("(") + binary_op_spelling(a.op) + "= " + dump(*a.target) + " " + dump(*a.value) + ")";
    }
    case StmtKind::ExprStmt: return "(expr " + dump(*s.as<ExprStmt>().value) + ")";
    case StmtKind::Pass: return "(pass)";
    case StmtKind::Break: return "(break)";
    case StmtKind::Continue: return "(continue)";
    case StmtKind::Return: return "(return " + opt(s.as<Return>().value) + ")";
    case StmtKind::FunctionDef: {
        const auto& f = s.as<FunctionDef>();
        std::string out = "(def";
        for (const auto& d : f.decorators) out += " (@ " + dump(*d) + ")";
        out += " " + f.name + " (";
        for (size_t k = 0; k < f.params.size(); ++k) {
            out += (k ? " " : "") + f.params[k].name;
            if (f.params[k].default_value) out += "=" + dump(*f.params[k].default_value);
        }
        return out + ")" + block(f.body) + ")";
    }
    case StmtKind::For: {
        const auto& f = s.as<For>();
        return "(for " + dump(*f.target) + " " + dump(*f.iter) + block(f.body) + ")";
    }
    case StmtKind::If: {
        const auto& i = s.as<If>();
        std::string out = "(if " + dump(*i.test) + " (then" + block(i.body) + ")";
        if (!i.orelse.empty()) out += " (else" + block(i.orelse) + ")";
        return out + ")";
    }
    case StmtKind::With: {
        const auto& w = s.as<With>();
        std::string out = "(with";
        for (const auto& item : w.items)
            out += " (" + dump(*item.context) + (item.name.empty() ? "" : " as " + item.name) + ")";
        return out + block(w.body) + ")";
    }
    }
    return "?";
}

std::string dump(const Module& m) {
    std::string out;
    for (const auto& s : m.body) out += dump(*s) + "\n";
    return out;
}

}  // namespace dsl::ast
