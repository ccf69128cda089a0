// The parser's internals, shared by its translation units: parser.cpp
// (token handling and simple statements), parser_stmt.cpp (compound
// statements and blocks) and parser_expr.cpp (expressions). Not part of the
// front end's interface; use parser.h.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dsl/support/diagnostics.h"
#include "dsl/syntax/ast.h"
#include "dsl/syntax/token.h"

namespace dsl::parser_detail {

using namespace ast;

// Deeper expressions would only come from generated or hostile input; the
// limit keeps the parser's and the elaborator's recursion (and the tree's
// destructor) far from the end of the stack.
constexpr int kMaxDepth = 1000;
// An elif chain nests in the tree, so its length is bounded too.
constexpr int kMaxElifs = 1000;

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

    Module module();

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

    // Brackets are tracked so an unclosed one can be named where it opened.
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

    // The one place that decides how a keyword outside the slice is reported.
    void reject_keyword(const Token& t) const;

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

    // ---- statements (parser.cpp) ----
    void statement(Block& out);
    void simple_line(Block& out);
    StmtPtr simple_statement();
    StmtPtr flow_statement();
    StmtPtr import_statement();
    static bool aug_op(const std::string& s, BinaryOp& op);
    StmtPtr assignment_or_expression();
    void check_target(const Expr& e) const;

    // ---- compound statements (parser_stmt.cpp) ----
    static bool starts_compound(const Token& t);
    StmtPtr compound_statement();
    void block(Block& out, const std::string& after, const SourceLoc& head);
    StmtPtr decorated();
    StmtPtr function_def(std::vector<ExprPtr> decorators);
    void parameters(FunctionDef& f);
    StmtPtr for_statement();
    StmtPtr if_statement();
    StmtPtr with_statement();
    ExprPtr target_list();
    void expect_keyword(const char* word, const std::string& context);

    // ---- expressions (parser_expr.cpp) ----
    static bool starts_expression(const Token& t);
    ExprPtr expression_list();
    ExprPtr test();
    ExprPtr bool_chain(BoolOpKind kind, const char* word, ExprPtr (Parser::*operand)());
    ExprPtr or_test();
    ExprPtr and_test();
    ExprPtr not_test();
    bool comparison_op(CmpOp& op);
    ExprPtr comparison();
    ExprPtr binary_level(const std::vector<std::pair<const char*, BinaryOp>>& ops, ExprPtr (Parser::*operand)());
    ExprPtr bit_or();
    ExprPtr bit_xor();
    ExprPtr bit_and();
    ExprPtr shift();
    ExprPtr arith();
    ExprPtr term();
    ExprPtr factor();
    ExprPtr power();
    ExprPtr primary();
    ExprPtr subscript_index();
    ExprPtr subscript_item();
    ExprPtr comprehension(ExprPtr elt);
    ExprPtr call(ExprPtr func);
    ExprPtr elements(std::vector<ExprPtr>& out, const char* closer, bool& had_comma);
    ExprPtr atom();
    ExprPtr parenthesised();
    ExprPtr dict_display();

    std::shared_ptr<const SourceFile> src_;
    std::vector<Token> toks_;
    size_t i_ = 0;
    std::vector<Token> open_;  // brackets not yet closed, innermost last
    int depth_ = 0;            // expression nesting, see Nest
    int function_depth_ = 0;   // `return` is legal inside a def
    int loop_depth_ = 0;       // `break`/`continue` inside a loop of the innermost def
};

}  // namespace dsl::parser_detail
