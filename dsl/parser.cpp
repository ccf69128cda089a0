#include "dsl/parser.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "dsl/diagnostics.h"
#include "dsl/lexer.h"

namespace dsl {

namespace {

using namespace ast;

const char* const kImportMessage = "only 'import pypto as pypo' and 'import pypo' are supported";

// Statement keywords PyPTO will grow into (the next language slice).
const char* const kNotYet[] = {"def", "for", "if", "with", "return", "break", "continue"};
// Python that PyPTO programs have no use for: control flow the compiler
// cannot unroll, runtime-only features, and anything object-oriented.
const char* const kOutside[] = {"class", "while", "try", "except", "finally", "global", "nonlocal",
                                "del", "yield", "async", "await", "raise", "assert", "lambda"};

// Deeper expressions would only come from generated or hostile input; the
// limit keeps the parser's and the elaborator's recursion (and the tree's
// destructor) far from the end of the stack.
constexpr int kMaxDepth = 1000;

std::string loc_text(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

class Parser {
public:
    Parser(std::shared_ptr<const SourceFile> src, std::vector<Token> tokens)
        : src_(std::move(src)), toks_(std::move(tokens)) {
        if (toks_.empty() || toks_.back().kind != TokenKind::End) {
            Token end;
            end.kind = TokenKind::End;
            end.loc.file = src_;
            end.loc.line = 1;
            end.loc.col = 1;
            toks_.push_back(end);
        }
    }

    Module module() {
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

private:
    // ---- token access ----
    const Token& peek(size_t k = 0) const { return toks_[std::min(i_ + k, toks_.size() - 1)]; }
    const Token& next() {
        const Token& t = toks_[i_];
        if (i_ + 1 < toks_.size()) ++i_;
        return t;
    }
    bool accept_op(const char* s) {
        if (!peek().is_op(s)) return false;
        next();
        return true;
    }
    bool accept_keyword(const char* s) {
        if (!peek().is_keyword(s)) return false;
        next();
        return true;
    }

    [[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) const { throw CompileError(loc, msg); }

    // Reaching the end of the file inside brackets is best reported at the
    // bracket that was left open, not at the end of the file.
    [[noreturn]] void fail_at(const Token& t, const std::string& msg) const {
        if (t.kind == TokenKind::End && !open_.empty())
            fail(open_.back().loc, "'" + open_.back().text + "' was never closed");
        fail(t.loc, msg);
    }

    const Token& open(const char* s) {
        const Token& t = next();  // the caller has checked it is `s`
        (void)s;
        open_.push_back(t);
        return t;
    }
    void close(const char* closer) {
        Token opener = open_.back();
        if (!accept_op(closer))
            fail_at(peek(), std::string("expected '") + closer + "' to close '" + opener.text + "' opened at " +
                                loc_text(opener.loc));
        open_.pop_back();
    }

    static bool in_list(const char* const* list, size_t n, const std::string& word) {
        for (size_t k = 0; k < n; ++k)
            if (word == list[k]) return true;
        return false;
    }
    // The one place that decides how a keyword outside the slice is reported.
    void reject_keyword(const Token& t) const {
        if (t.kind != TokenKind::Keyword) return;
        if (in_list(kNotYet, std::size(kNotYet), t.text))
            fail(t.loc, "'" + t.text + "' statements are not supported yet");
        if (in_list(kOutside, std::size(kOutside), t.text))
            fail(t.loc, "'" + t.text + "' is outside the PyPTO language");
    }

    // Counts one level of expression nesting for as long as it lives.
    class Nest {
    public:
        Nest(Parser& p, const Token& at) : p_(p) { p_.deeper(at, 1); }
        ~Nest() { --p_.depth_; }

    private:
        Parser& p_;
    };
    // A left-deep chain (a + b + c, f.x.y) nests without recursing here, but
    // it recurses when evaluated, so its length counts as depth too.
    void deeper(const Token& at, int levels) {
        depth_ += levels;
        if (depth_ > kMaxDepth) fail(at.loc, "expression is nested too deeply");
    }

    // ---- statements ----
    void statement(std::vector<StmtPtr>& out) {
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

    StmtPtr simple_statement() {
        const Token& t = peek();
        if (t.is_op("@")) fail(t.loc, "decorators are not supported yet");
        if (t.is_keyword("elif") || t.is_keyword("else")) fail(t.loc, "invalid syntax");
        if (t.is_keyword("from")) fail(t.loc, kImportMessage);
        if (t.is_keyword("import")) return import_statement();
        if (t.is_keyword("pass")) {
            next();
            return make<Pass>(t.loc);
        }
        reject_keyword(t);
        return assignment_or_expression();
    }

    StmtPtr import_statement() {
        SourceLoc loc = next().loc;
        const Token& name = peek();
        if (name.kind != TokenKind::Name) fail_at(name, "expected a module name after 'import', found " + describe_token(name));
        next();
        std::string module = name.text;
        while (accept_op(".")) {
            if (peek().kind != TokenKind::Name) fail_at(peek(), "expected a module name after '.', found " + describe_token(peek()));
            module += "." + next().text;
        }
        std::string alias;
        if (accept_keyword("as")) {
            if (peek().kind != TokenKind::Name) fail_at(peek(), "expected a name after 'as', found " + describe_token(peek()));
            alias = next().text;
        }
        bool ok = (module == "pypto" && alias == "pypo") || (module == "pypo" && (alias.empty() || alias == "pypo"));
        if (!ok || peek().is_op(",")) fail(name.loc, kImportMessage);
        auto s = make<Import>(loc);
        s->module = module;
        s->alias = "pypo";
        return s;
    }

    static bool aug_op(const std::string& s, BinaryOp& op) {
        static const std::pair<const char*, BinaryOp> table[] = {
            {"+=", BinaryOp::Add},     {"-=", BinaryOp::Sub},      {"*=", BinaryOp::Mul},
            {"@=", BinaryOp::MatMul},  {"/=", BinaryOp::Div},      {"//=", BinaryOp::FloorDiv},
            {"%=", BinaryOp::Mod},     {"**=", BinaryOp::Pow},     {"<<=", BinaryOp::LShift},
            {">>=", BinaryOp::RShift}, {"&=", BinaryOp::BitAnd},   {"|=", BinaryOp::BitOr},
            {"^=", BinaryOp::BitXor},
        };
        for (const auto& [spelling, o] : table)
            if (s == spelling) {
                op = o;
                return true;
            }
        return false;
    }

    StmtPtr assignment_or_expression() {
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

    void check_target(const Expr& e) const {
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

    // ---- expressions ----
    static bool starts_expression(const Token& t) {
        switch (t.kind) {
            case TokenKind::Name:
            case TokenKind::Int:
            case TokenKind::Float:
            case TokenKind::String: return true;
            case TokenKind::Keyword:
                return t.text == "True" || t.text == "False" || t.text == "None" || t.text == "not" ||
                       t.text == "lambda" || t.text == "yield" || t.text == "await";
            case TokenKind::Op:
                return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
                       t.text == "~";
            default: return false;
        }
    }

    // `a, b` without brackets (assignment sides, expression statements):
    // a tuple when there is a comma, the bare expression otherwise.
    ExprPtr expression_list() {
        ExprPtr first = test();
        if (!peek().is_op(",")) return first;
        auto tup = make<Tuple>(first->loc);
        tup->elts.push_back(std::move(first));
        while (accept_op(",")) {
            if (!starts_expression(peek())) break;  // trailing comma
            tup->elts.push_back(test());
        }
        return tup;
    }

    ExprPtr test() {
        const Token& t = peek();
        Nest nest(*this, t);
        if (t.is_keyword("lambda") || t.is_keyword("yield") || t.is_keyword("await")) reject_keyword(t);
        ExprPtr body = or_test();
        if (peek().is_op(":=")) fail(peek().loc, "':=' is outside the PyPTO language");
        if (!accept_keyword("if")) return body;
        auto e = make<IfElse>(body->loc);
        e->body = std::move(body);
        e->test = or_test();
        if (!accept_keyword("else"))
            fail_at(peek(), "expected 'else' in conditional expression, found " + describe_token(peek()));
        e->orelse = test();
        return e;
    }

    ExprPtr bool_chain(BoolOpKind kind, const char* word, ExprPtr (Parser::*operand)()) {
        ExprPtr first = (this->*operand)();
        if (!peek().is_keyword(word)) return first;
        auto e = make<BoolOp>(first->loc);
        e->op = kind;
        e->values.push_back(std::move(first));
        while (accept_keyword(word)) e->values.push_back((this->*operand)());
        return e;
    }
    ExprPtr or_test() { return bool_chain(BoolOpKind::Or, "or", &Parser::and_test); }
    ExprPtr and_test() { return bool_chain(BoolOpKind::And, "and", &Parser::not_test); }

    ExprPtr not_test() {
        if (!peek().is_keyword("not")) return comparison();
        Nest nest(*this, peek());
        auto e = make<Unary>(next().loc);
        e->op = UnaryOp::Not;
        e->operand = not_test();
        return e;
    }

    bool comparison_op(CmpOp& op) {
        const Token& t = peek();
        static const std::pair<const char*, CmpOp> ops[] = {
            {"<", CmpOp::Lt}, {">", CmpOp::Gt}, {"<=", CmpOp::Le},
            {">=", CmpOp::Ge}, {"==", CmpOp::Eq}, {"!=", CmpOp::Ne},
        };
        for (const auto& [s, o] : ops)
            if (t.is_op(s)) {
                next();
                op = o;
                return true;
            }
        if (t.is_keyword("in")) {
            next();
            op = CmpOp::In;
            return true;
        }
        if (t.is_keyword("not") && peek(1).is_keyword("in")) {
            next();
            next();
            op = CmpOp::NotIn;
            return true;
        }
        if (t.is_keyword("is")) {
            next();
            op = accept_keyword("not") ? CmpOp::IsNot : CmpOp::Is;
            return true;
        }
        return false;
    }

    ExprPtr comparison() {
        ExprPtr first = bit_or();
        SourceLoc op_loc = peek().loc;
        CmpOp op;
        if (!comparison_op(op)) return first;
        auto e = make<Compare>(first->loc);
        e->first = std::move(first);
        do {
            e->ops.push_back(op);
            e->op_locs.push_back(op_loc);
            e->rest.push_back(bit_or());
            op_loc = peek().loc;
        } while (comparison_op(op));
        return e;
    }

    // One left-associative binary level: operand (op operand)*.
    ExprPtr binary_level(const std::vector<std::pair<const char*, BinaryOp>>& ops, ExprPtr (Parser::*operand)()) {
        ExprPtr lhs = (this->*operand)();
        int chain = 0;
        for (;;) {
            const Token& t = peek();
            const std::pair<const char*, BinaryOp>* hit = nullptr;
            for (const auto& o : ops)
                if (t.is_op(o.first)) hit = &o;
            if (!hit) {
                depth_ -= chain;
                return lhs;
            }
            ++chain;
            deeper(t, 1);
            auto e = make<Binary>(lhs->loc);
            e->op_loc = next().loc;
            e->op = hit->second;
            e->lhs = std::move(lhs);
            e->rhs = (this->*operand)();
            lhs = std::move(e);
        }
    }
    ExprPtr bit_or() { return binary_level({{"|", BinaryOp::BitOr}}, &Parser::bit_xor); }
    ExprPtr bit_xor() { return binary_level({{"^", BinaryOp::BitXor}}, &Parser::bit_and); }
    ExprPtr bit_and() { return binary_level({{"&", BinaryOp::BitAnd}}, &Parser::shift); }
    ExprPtr shift() { return binary_level({{"<<", BinaryOp::LShift}, {">>", BinaryOp::RShift}}, &Parser::arith); }
    ExprPtr arith() { return binary_level({{"+", BinaryOp::Add}, {"-", BinaryOp::Sub}}, &Parser::term); }
    ExprPtr term() {
        return binary_level({{"*", BinaryOp::Mul},
                             {"/", BinaryOp::Div},
                             {"//", BinaryOp::FloorDiv},
                             {"%", BinaryOp::Mod},
                             {"@", BinaryOp::MatMul}},
                            &Parser::factor);
    }

    ExprPtr factor() {
        const Token& t = peek();
        UnaryOp op;
        if (t.is_op("-")) op = UnaryOp::Neg;
        else if (t.is_op("+")) op = UnaryOp::Pos;
        else if (t.is_op("~")) op = UnaryOp::Invert;
        else return power();
        Nest nest(*this, t);
        auto e = make<Unary>(next().loc);
        e->op = op;
        e->operand = factor();
        return e;
    }

    // '**' binds tighter than a unary minus on its left and is right-associative.
    ExprPtr power() {
        ExprPtr base = primary();
        if (!peek().is_op("**")) return base;
        Nest nest(*this, peek());
        auto e = make<Binary>(base->loc);
        e->op_loc = next().loc;
        e->op = BinaryOp::Pow;
        e->lhs = std::move(base);
        e->rhs = factor();
        return e;
    }

    ExprPtr primary() {
        ExprPtr e = atom();
        int chain = 0;
        for (;;) {
            const Token& t = peek();
            if (t.is_op(".") || t.is_op("(") || t.is_op("[")) {
                ++chain;
                deeper(t, 1);
            }
            if (t.is_op(".")) {
                next();
                const Token& name = peek();
                if (name.kind != TokenKind::Name)
                    fail_at(name, "expected an attribute name after '.', found " + describe_token(name));
                next();
                auto a = make<Attribute>(e->loc);
                a->value = std::move(e);
                a->attr = name.text;
                a->attr_loc = name.loc;
                e = std::move(a);
            } else if (t.is_op("(")) {
                e = call(std::move(e));
            } else if (t.is_op("[")) {
                auto s = make<Subscript>(e->loc);
                s->open_loc = open("[").loc;
                s->value = std::move(e);
                s->index = subscript_index();
                close("]");
                e = std::move(s);
            } else {
                depth_ -= chain;
                return e;
            }
        }
    }

    ExprPtr subscript_index() {
        if (peek().is_op(":")) fail(peek().loc, "slices are not supported yet");
        ExprPtr first = test();
        if (peek().is_op(":")) fail(peek().loc, "slices are not supported yet");
        if (!peek().is_op(",")) return first;
        auto tup = make<Tuple>(first->loc);
        tup->elts.push_back(std::move(first));
        while (accept_op(",")) {
            if (peek().is_op("]")) break;
            tup->elts.push_back(test());
            if (peek().is_op(":")) fail(peek().loc, "slices are not supported yet");
        }
        return tup;
    }

    void no_comprehension() const {
        if (peek().is_keyword("for")) fail(peek().loc, "comprehensions are not supported yet");
    }

    ExprPtr call(ExprPtr func) {
        auto c = make<Call>(func->loc);
        c->func = std::move(func);
        c->open_loc = open("(").loc;
        while (!peek().is_op(")")) {
            const Token& t = peek();
            if (t.is_op("*") || t.is_op("**"))
                fail(t.loc, "argument unpacking ('" + t.text + "') is outside the PyPTO language");
            if (t.kind == TokenKind::Name && peek(1).is_op("=")) {
                for (const auto& k : c->keywords)
                    if (k.name == t.text) fail(t.loc, "keyword argument repeated: '" + t.text + "'");
                Keyword k;
                k.name = t.text;
                k.name_loc = t.loc;
                next();
                next();
                k.value = test();
                c->keywords.push_back(std::move(k));
            } else {
                ExprPtr arg = test();
                if (!c->keywords.empty()) fail(arg->loc, "positional argument follows keyword argument");
                no_comprehension();
                c->args.push_back(std::move(arg));
            }
            if (!accept_op(",")) break;
        }
        close(")");
        return c;
    }

    // Elements of a bracketed display up to (not including) the closer.
    void elements(std::vector<ExprPtr>& out, const char* closer, bool& had_comma) {
        had_comma = false;
        while (!peek().is_op(closer)) {
            out.push_back(test());
            no_comprehension();
            if (!accept_op(",")) break;
            had_comma = true;
        }
    }

    ExprPtr atom() {
        const Token& t = peek();
        switch (t.kind) {
            case TokenKind::Name: {
                auto e = make<Name>(t.loc);
                e->id = next().text;
                return e;
            }
            case TokenKind::Int: {
                auto e = make<IntLit>(t.loc);
                e->value = next().int_value;
                return e;
            }
            case TokenKind::Float: {
                auto e = make<FloatLit>(t.loc);
                e->value = next().float_value;
                return e;
            }
            case TokenKind::String: {
                // Adjacent literals concatenate, as in Python.
                auto e = make<StrLit>(t.loc);
                while (peek().kind == TokenKind::String) e->value += next().str_value;
                return e;
            }
            case TokenKind::Keyword:
                if (t.text == "True" || t.text == "False") {
                    auto e = make<BoolLit>(t.loc);
                    e->value = next().text == "True";
                    return e;
                }
                if (t.text == "None") return make<NoneLit>(next().loc);
                reject_keyword(t);
                break;
            case TokenKind::Op:
                if (t.text == "(") return parenthesised();
                if (t.text == "[") {
                    auto l = make<List>(t.loc);
                    open("[");
                    bool comma;
                    elements(l->elts, "]", comma);
                    close("]");
                    return l;
                }
                if (t.text == "{") fail(t.loc, "dict and set literals are not supported yet");
                break;
            default: break;
        }
        fail_at(t, "expected an expression, found " + describe_token(t));
    }

    ExprPtr parenthesised() {
        SourceLoc loc = open("(").loc;
        std::vector<ExprPtr> elts;
        bool comma;
        elements(elts, ")", comma);
        close(")");
        if (elts.size() == 1 && !comma) return std::move(elts[0]);
        auto tup = make<Tuple>(loc);
        tup->elts = std::move(elts);
        return tup;
    }

    std::shared_ptr<const SourceFile> src_;
    std::vector<Token> toks_;
    size_t i_ = 0;
    std::vector<Token> open_;  // brackets not yet closed, innermost last
    int depth_ = 0;            // expression nesting, see Nest
};

}  // namespace

ast::Module parse_tokens(std::shared_ptr<const SourceFile> src, std::vector<Token> tokens) {
    return Parser(std::move(src), std::move(tokens)).module();
}

ast::Module parse(std::shared_ptr<const SourceFile> src) {
    std::vector<Token> tokens = tokenize(src);
    return parse_tokens(std::move(src), std::move(tokens));
}

}  // namespace dsl
