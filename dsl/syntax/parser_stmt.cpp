// Compound statements: def (with decorators), for, if/elif/else, with, and
// the indented blocks they own.
#include <utility>

#include "dsl/syntax/parser_impl.h"

namespace dsl::parser_detail {

bool Parser::starts_compound(const Token& t) {
    return t.is_op("@") || t.is_keyword("def") || t.is_keyword("for") || t.is_keyword("if") || t.is_keyword("with");
}

StmtPtr Parser::compound_statement() {
    const Token& t = peek();
    if (t.is_op("@")) return decorated();
    if (t.is_keyword("def")) return function_def({});
    if (t.is_keyword("for")) return for_statement();
    if (t.is_keyword("if")) return if_statement();
    return with_statement();
}

void Parser::expect_keyword(const char* word, const std::string& context) {
    if (!accept_keyword(word))
        fail_at(peek(), std::string("expected '") + word + "' " + context + ", found " + describe_token(peek()));
}

// ':' then either simple statements on the same line or an indented block.
// `after` names the statement for Python's "expected an indented block
// after 'for' statement on line 3".
void Parser::block(Block& out, const std::string& after, const SourceLoc& head) {
    if (!accept_op(":")) fail_at(peek(), "expected ':', found " + describe_token(peek()));
    if (peek().kind != TokenKind::Newline) {
        simple_line(out);
        return;
    }
    next();
    if (peek().kind != TokenKind::Indent)
        fail_at(peek(), "expected an indented block after " + after + " on line " + std::to_string(head.line));
    next();
    while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) {
        if (peek().kind == TokenKind::Indent) fail(peek().loc, "unexpected indent");
        statement(out);
    }
    next();  // the Dedent (the lexer closes every block before End)
}

StmtPtr Parser::decorated() {
    std::vector<ExprPtr> decorators;
    while (peek().is_op("@")) {
        next();
        decorators.push_back(test());
        if (peek().kind != TokenKind::Newline)
            fail_at(peek(), "expected end of line after the decorator, found " + describe_token(peek()));
        next();
    }
    if (peek().is_keyword("def")) return function_def(std::move(decorators));
    reject_keyword(peek());  // @... class: name what is really wrong
    fail_at(peek(), "expected 'def' after a decorator, found " + describe_token(peek()));
}

StmtPtr Parser::function_def(std::vector<ExprPtr> decorators) {
    auto f = make<FunctionDef>(next().loc);
    f->decorators = std::move(decorators);
    const Token& name = peek();
    if (name.kind != TokenKind::Name)
        fail_at(name, "expected a function name after 'def', found " + describe_token(name));
    f->name = name.text;
    f->name_loc = next().loc;
    if (!peek().is_op("(")) fail_at(peek(), "expected '(' after the function name, found " + describe_token(peek()));
    parameters(*f);
    if (peek().is_op("->")) fail(peek().loc, "return annotations are outside the PyPTO language");
    // A def starts a new function: loops around it do not enclose its body.
    int saved_loops = loop_depth_;
    loop_depth_ = 0;
    ++function_depth_;
    block(f->body, "function definition", f->loc);
    --function_depth_;
    loop_depth_ = saved_loops;
    return f;
}

void Parser::parameters(FunctionDef& f) {
    open("(");
    bool seen_default = false;
    while (!peek().is_op(")")) {
        const Token& t = peek();
        if (t.is_op("*") || t.is_op("**"))
            fail(t.loc, "variable arguments ('" + t.text + "') are outside the PyPTO language");
        if (t.is_op("/")) fail(t.loc, "positional-only parameters ('/') are outside the PyPTO language");
        if (t.kind != TokenKind::Name) fail_at(t, "expected a parameter name, found " + describe_token(t));
        for (const Param& p : f.params)
            if (p.name == t.text) fail(t.loc, "duplicate parameter '" + t.text + "' in function definition");
        Param p;
        p.name = t.text;
        p.loc = next().loc;
        if (peek().is_op(":")) fail(peek().loc, "annotations are outside the PyPTO language");
        if (accept_op("=")) {
            p.default_value = test();
            seen_default = true;
        } else if (seen_default) {
            fail(p.loc, "parameter without a default follows parameter with a default");
        }
        f.params.push_back(std::move(p));
        if (!accept_op(",")) break;
    }
    close(")");
}

// Loop and comprehension targets: `i`, `i, x`, `(a, b)`. Parsed below the
// comparison level so the `in` that follows is not taken as an operator.
ExprPtr Parser::target_list() {
    ExprPtr first = bit_or();
    if (!peek().is_op(",")) return first;
    auto tup = make<Tuple>(first->loc);
    tup->elts.push_back(std::move(first));
    while (accept_op(",")) {
        if (peek().is_keyword("in")) break;
        tup->elts.push_back(bit_or());
    }
    return tup;
}

StmtPtr Parser::for_statement() {
    auto f = make<For>(next().loc);
    f->target = target_list();
    check_target(*f->target);
    expect_keyword("in", "after the loop variable");
    f->iter = expression_list();
    ++loop_depth_;
    block(f->body, "'for' statement", f->loc);
    --loop_depth_;
    if (peek().is_keyword("else")) fail(peek().loc, "'else' after a loop is outside the PyPTO language");
    return f;
}

// `elif` chains are built iteratively (each elif is the else-branch of the
// previous test) so a long chain does not recurse here.
StmtPtr Parser::if_statement() {
    auto first = make<If>(next().loc);
    first->test = test();
    block(first->body, "'if' statement", first->loc);
    If* last = first.get();
    int elifs = 0;
    while (peek().is_keyword("elif")) {
        if (++elifs > kMaxElifs) fail(peek().loc, "too many 'elif' branches (the limit is 1000)");
        auto e = make<If>(next().loc);
        e->test = test();
        block(e->body, "'elif' statement", e->loc);
        If* next_last = e.get();
        last->orelse.push_back(std::move(e));
        last = next_last;
    }
    if (peek().is_keyword("else")) {
        SourceLoc loc = next().loc;
        block(last->orelse, "'else' statement", loc);
    }
    return first;
}

StmtPtr Parser::with_statement() {
    auto w = make<With>(next().loc);
    for (;;) {
        WithItem item;
        item.context = test();
        if (accept_keyword("as")) {
            const Token& t = peek();
            if (t.kind != TokenKind::Name) fail_at(t, "the target of 'with ... as' must be a name");
            item.name = t.text;
            item.name_loc = next().loc;
        }
        w->items.push_back(std::move(item));
        if (!accept_op(",")) break;
    }
    block(w->body, "'with' statement", w->loc);
    return w;
}

}  // namespace dsl::parser_detail
