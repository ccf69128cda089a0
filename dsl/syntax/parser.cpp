#include "dsl/syntax/parser.h"

#include <iterator>
#include <utility>

#include "dsl/syntax/lexer.h"
#include "dsl/syntax/parser_impl.h"

namespace dsl {

namespace parser_detail {

namespace {

const char* const kImportMessage = "only 'import pypto as pypo', 'import pypto' and 'import pypo' are supported";

// Python that PyPTO programs have no use for: control flow the compiler
// cannot unroll, runtime-only features, and anything object-oriented.
const char* const kOutside[] = {"class", "while", "try",   "except", "finally", "global", "nonlocal",
                                "del",   "yield", "async", "await",  "raise",   "assert", "lambda"};

bool in_list(const char* const* list, size_t n, const std::string& word) {
    for (size_t k = 0; k < n; ++k)
        if (word == list[k]) return true;
    return false;
}

}  // namespace

Module Parser::module() {
    Module m;
    m.file = src_;
    while (peek().kind != TokenKind::End) {
        const Token& t = peek();
        if (t.kind == TokenKind::Newline) {
            next();
        } else if (t.kind == TokenKind::Indent) {
            fail(t.loc, "unexpected indent");
        } else if (t.kind == TokenKind::Dedent) {
            fail(t.loc, "unexpected dedent");  // unreachable from the lexer: no Indent was accepted
        } else {
            statement(m.body);
        }
    }
    return m;
}

void Parser::reject_keyword(const Token& t) const {
    if (t.kind != TokenKind::Keyword) return;
    if (in_list(kOutside, std::size(kOutside), t.text)) fail(t.loc, "'" + t.text + "' is outside the PyPTO language");
}

void Parser::statement(Block& out) {
    if (starts_compound(peek())) {
        out.push_back(compound_statement());
        return;
    }
    simple_line(out);
}

// Simple statements separated by ';' up to the end of the line.
void Parser::simple_line(Block& out) {
    for (;;) {
        out.push_back(simple_statement());
        if (!accept_op(";")) break;
        if (peek().kind == TokenKind::Newline || peek().kind == TokenKind::End) break;
    }
    const Token& t = peek();
    if (t.kind == TokenKind::Newline || t.kind == TokenKind::End) {
        next();
        return;
    }
    fail_at(t, "expected end of statement, found " + describe_token(t));
}

StmtPtr Parser::simple_statement() {
    const Token& t = peek();
    // Only reachable after `if x:` on the same line: Python wants a new line.
    if (starts_compound(t)) fail(t.loc, "'" + t.text + "' must start a new line");
    if (t.is_keyword("elif") || t.is_keyword("else")) fail(t.loc, "invalid syntax");
    if (t.is_keyword("return") || t.is_keyword("break") || t.is_keyword("continue")) return flow_statement();
    if (t.is_keyword("from")) fail(t.loc, kImportMessage);
    if (t.is_keyword("import")) return import_statement();
    if (t.is_keyword("pass")) {
        next();
        return make<Pass>(t.loc);
    }
    reject_keyword(t);
    return assignment_or_expression();
}

StmtPtr Parser::flow_statement() {
    const Token& t = next();
    if (t.text == "return") {
        if (function_depth_ == 0) fail(t.loc, "'return' outside function");
        auto s = make<Return>(t.loc);
        if (starts_expression(peek())) s->value = expression_list();
        return s;
    }
    if (loop_depth_ == 0) fail(t.loc, "'" + t.text + "' outside loop");
    if (t.text == "break") return make<Break>(t.loc);
    return make<Continue>(t.loc);
}

StmtPtr Parser::import_statement() {
    SourceLoc loc = next().loc;
    const Token& name = peek();
    if (name.kind != TokenKind::Name)
        fail_at(name, "expected a module name after 'import', found " + describe_token(name));
    next();
    std::string module = name.text;
    while (accept_op(".")) {
        if (peek().kind != TokenKind::Name)
            fail_at(peek(), "expected a module name after '.', found " + describe_token(peek()));
        module += "." + next().text;
    }
    std::string alias;
    if (accept_keyword("as")) {
        if (peek().kind != TokenKind::Name)
            fail_at(peek(), "expected a name after 'as', found " + describe_token(peek()));
        alias = next().text;
    }
    // `import pypto` binds `pypto` (real PyPTO code spells pypto.DT_FP16).
    bool ok = (module == "pypto" && (alias == "pypo" || alias.empty() || alias == "pypto")) ||
              (module == "pypo" && (alias.empty() || alias == "pypo"));
    if (!ok || peek().is_op(",")) fail(name.loc, kImportMessage);
    auto s = make<Import>(loc);
    s->module = module;
    s->alias = alias.empty() ? module : alias;
    return s;
}

bool Parser::aug_op(const std::string& s, BinaryOp& op) {
    static const std::pair<const char*, BinaryOp> table[] = {
        {"+=", BinaryOp::Add},     {"-=", BinaryOp::Sub},       {"*=", BinaryOp::Mul},    {"@=", BinaryOp::MatMul},
        {"/=", BinaryOp::Div},     {"//=", BinaryOp::FloorDiv}, {"%=", BinaryOp::Mod},    {"**=", BinaryOp::Pow},
        {"<<=", BinaryOp::LShift}, {">>=", BinaryOp::RShift},   {"&=", BinaryOp::BitAnd}, {"|=", BinaryOp::BitOr},
        {"^=", BinaryOp::BitXor},
    };
    for (const auto& [spelling, o] : table)
        if (s == spelling) {
            op = o;
            return true;
        }
    return false;
}

StmtPtr Parser::assignment_or_expression() {
    SourceLoc loc = peek().loc;
    ExprPtr first = expression_list();
    const Token& t = peek();
    BinaryOp op;
    if (t.is_op("=")) {
        auto s = make<Assign>(loc);
        s->targets.push_back(std::move(first));
        while (accept_op("=")) {
            ExprPtr rhs = expression_list();
            s->targets.push_back(std::move(rhs));
        }
        s->value = std::move(s->targets.back());
        s->targets.pop_back();
        for (const auto& target : s->targets) check_target(*target);
        return s;
    }
    if (t.kind == TokenKind::Op && aug_op(t.text, op)) {
        auto s = make<AugAssign>(loc);
        s->op_loc = next().loc;
        s->op = op;
        if (first->is<Tuple>() || first->is<List>())
            fail(first->loc, std::string("'") + (first->is<Tuple>() ? "tuple" : "list") +
                                 "' is an illegal expression for augmented assignment");
        check_target(*first);
        s->target = std::move(first);
        s->value = expression_list();
        return s;
    }
    if (t.is_op(":")) fail(t.loc, "variable annotations are outside the PyPTO language");
    auto s = make<ExprStmt>(loc);
    s->value = std::move(first);
    return s;
}

void Parser::check_target(const Expr& e) const {
    switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Attribute:
    case ExprKind::Subscript: return;
    case ExprKind::Tuple:
        for (const auto& x : e.as<Tuple>().elts) check_target(*x);
        return;
    case ExprKind::List:
        for (const auto& x : e.as<List>().elts) check_target(*x);
        return;
    case ExprKind::Int:
    case ExprKind::Float:
    case ExprKind::Str:
    case ExprKind::Bool:
    case ExprKind::None: fail(e.loc, "cannot assign to literal");
    case ExprKind::Call: fail(e.loc, "cannot assign to function call");
    default: fail(e.loc, "cannot assign to expression");
    }
}

}  // namespace parser_detail

ast::Module parse_tokens(std::shared_ptr<const SourceFile> src, std::vector<Token> tokens) {
    return parser_detail::Parser(std::move(src), std::move(tokens)).module();
}

ast::Module parse(std::shared_ptr<const SourceFile> src) {
    std::vector<Token> tokens = tokenize(src);
    return parse_tokens(std::move(src), std::move(tokens));
}

ast::Module parse(const std::string& text, const std::string& filename) {
    auto src = std::make_shared<SourceFile>();
    src->path = filename;
    src->text = text;
    return parse(std::move(src));
}

}  // namespace dsl
