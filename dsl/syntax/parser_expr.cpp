// Expressions, by Python's precedence levels from the loosest (conditional
// expression) to the tightest (atoms and their trailers).
#include <utility>

#include "dsl/syntax/parser_impl.h"

namespace dsl::parser_detail {

bool Parser::starts_expression(const Token& t) {
    switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String: return true;
    case TokenKind::Keyword:
        return t.text == "True" || t.text == "False" || t.text == "None" || t.text == "not" || t.text == "lambda" ||
               t.text == "yield" || t.text == "await";
    case TokenKind::Op:
        return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" || t.text == "~" ||
               t.text == "...";
    default: return false;
    }
}

// `a, b` without brackets (assignment sides, expression statements):
// a tuple when there is a comma, the bare expression otherwise.
ExprPtr Parser::expression_list() {
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

ExprPtr Parser::test() {
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

ExprPtr Parser::bool_chain(BoolOpKind kind, const char* word, ExprPtr (Parser::*operand)()) {
    ExprPtr first = (this->*operand)();
    if (!peek().is_keyword(word)) return first;
    auto e = make<BoolOp>(first->loc);
    e->op = kind;
    e->values.push_back(std::move(first));
    while (accept_keyword(word)) e->values.push_back((this->*operand)());
    return e;
}

ExprPtr Parser::or_test() { return bool_chain(BoolOpKind::Or, "or", &Parser::and_test); }

ExprPtr Parser::and_test() { return bool_chain(BoolOpKind::And, "and", &Parser::not_test); }

ExprPtr Parser::not_test() {
    if (!peek().is_keyword("not")) return comparison();
    Nest nest(*this, peek());
    auto e = make<Unary>(next().loc);
    e->op = UnaryOp::Not;
    e->operand = not_test();
    return e;
}

bool Parser::comparison_op(CmpOp& op) {
    const Token& t = peek();
    static const std::pair<const char*, CmpOp> ops[] = {
        {"<", CmpOp::Lt}, {">", CmpOp::Gt}, {"<=", CmpOp::Le}, {">=", CmpOp::Ge}, {"==", CmpOp::Eq}, {"!=", CmpOp::Ne},
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

ExprPtr Parser::comparison() {
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
ExprPtr Parser::binary_level(const std::vector<std::pair<const char*, BinaryOp>>& ops, ExprPtr (Parser::*operand)()) {
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

ExprPtr Parser::bit_or() { return binary_level({{"|", BinaryOp::BitOr}}, &Parser::bit_xor); }

ExprPtr Parser::bit_xor() { return binary_level({{"^", BinaryOp::BitXor}}, &Parser::bit_and); }

ExprPtr Parser::bit_and() { return binary_level({{"&", BinaryOp::BitAnd}}, &Parser::shift); }

ExprPtr Parser::shift() { return binary_level({{"<<", BinaryOp::LShift}, {">>", BinaryOp::RShift}}, &Parser::arith); }

ExprPtr Parser::arith() { return binary_level({{"+", BinaryOp::Add}, {"-", BinaryOp::Sub}}, &Parser::term); }

ExprPtr Parser::term() {
    return binary_level({{"*", BinaryOp::Mul},
                         {"/", BinaryOp::Div},
                         {"//", BinaryOp::FloorDiv},
                         {"%", BinaryOp::Mod},
                         {"@", BinaryOp::MatMul}},
                        &Parser::factor);
}

ExprPtr Parser::factor() {
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
ExprPtr Parser::power() {
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

ExprPtr Parser::primary() {
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

ExprPtr Parser::subscript_index() {
    ExprPtr first = subscript_item();
    if (!peek().is_op(",")) return first;
    auto tup = make<Tuple>(first->loc);
    tup->elts.push_back(std::move(first));
    while (accept_op(",")) {
        if (peek().is_op("]")) break;
        tup->elts.push_back(subscript_item());
    }
    return tup;
}

// An index or a slice `lower:upper:step` with any part left out.
ExprPtr Parser::subscript_item() {
    ExprPtr lower;
    if (!peek().is_op(":")) {
        lower = test();
        if (!peek().is_op(":")) return lower;
    }
    auto s = make<Slice>(lower ? lower->loc : peek().loc);
    next();  // ':'
    s->lower = std::move(lower);
    auto ends_part = [&] { return peek().is_op(":") || peek().is_op(",") || peek().is_op("]"); };
    if (!ends_part()) s->upper = test();
    if (accept_op(":") && !ends_part()) s->step = test();
    return s;
}

// The `for ... in ... if ...` clauses after a comprehension's element.
ExprPtr Parser::comprehension(ExprPtr elt) {
    auto c = make<ListComp>(elt->loc);
    c->elt = std::move(elt);
    while (peek().is_keyword("for")) {
        next();
        Comprehension g;
        g.target = target_list();
        check_target(*g.target);
        expect_keyword("in", "after the comprehension variable");
        g.iter = or_test();
        while (accept_keyword("if")) g.ifs.push_back(or_test());
        c->generators.push_back(std::move(g));
    }
    return c;
}

ExprPtr Parser::call(ExprPtr func) {
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
            if (peek().is_keyword("for")) {
                // f(x for x in xs): a generator as the only argument.
                SourceLoc loc = arg->loc;
                arg = comprehension(std::move(arg));
                if (!c->args.empty() || !peek().is_op(")")) fail(loc, "a generator expression must be parenthesized");
            }
            c->args.push_back(std::move(arg));
        }
        if (!accept_op(",")) break;
    }
    close(")");
    return c;
}

// Elements of a bracketed display up to (not including) the closer. A
// single element followed by `for` makes the display a comprehension,
// which is returned (null otherwise).
ExprPtr Parser::elements(std::vector<ExprPtr>& out, const char* closer, bool& had_comma) {
    had_comma = false;
    while (!peek().is_op(closer)) {
        out.push_back(test());
        if (peek().is_keyword("for")) {
            if (out.size() != 1 || had_comma)
                fail(peek().loc, "a comprehension must be the only element of its brackets");
            return comprehension(std::move(out[0]));
        }
        if (!accept_op(",")) break;
        had_comma = true;
    }
    return nullptr;
}

ExprPtr Parser::atom() {
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
            ExprPtr comp = elements(l->elts, "]", comma);
            close("]");
            if (comp) return comp;
            return l;
        }
        if (t.text == "{") return dict_display();
        if (t.text == "...") return make<EllipsisLit>(next().loc);
        break;
    default: break;
    }
    fail_at(t, "expected an expression, found " + describe_token(t));
}

ExprPtr Parser::parenthesised() {
    SourceLoc loc = open("(").loc;
    std::vector<ExprPtr> elts;
    bool comma;
    ExprPtr comp = elements(elts, ")", comma);
    close(")");
    if (comp) return comp;
    if (elts.size() == 1 && !comma) return std::move(elts[0]);
    auto tup = make<Tuple>(loc);
    tup->elts = std::move(elts);
    return tup;
}

// `{key: value, ...}`. Sets and comprehensions over braces have no use in
// a PyPTO program.
ExprPtr Parser::dict_display() {
    auto d = make<Dict>(open("{").loc);
    while (!peek().is_op("}")) {
        if (peek().is_op("**")) fail(peek().loc, "dict unpacking ('**') is outside the PyPTO language");
        ExprPtr key = test();
        if (!peek().is_op(":")) {
            if (peek().is_op(",") || peek().is_op("}") || peek().is_keyword("for"))
                fail(d->loc, "set literals are outside the PyPTO language");
            fail_at(peek(), "expected ':' after a dict key, found " + describe_token(peek()));
        }
        next();
        d->keys.push_back(std::move(key));
        d->values.push_back(test());
        if (peek().is_keyword("for")) fail(peek().loc, "dict comprehensions are outside the PyPTO language");
        if (!accept_op(",")) break;
    }
    close("}");
    return d;
}

}  // namespace dsl::parser_detail
