// The parser's compound statements (def, decorators, for, if, with), flow
// statements, and the expressions added with them: slices, dicts,
// comprehensions, `...`.
#include "dsl/syntax/parser.h"

#include "dsl/syntax/ast.h"
#include "tests/dsl/dsl_test_util.h"

using dsl_test::error_of;

namespace {

std::string tree(const std::string& text) { return dsl::ast::dump(dsl::parse(text, "t.pto")); }

std::string parse_error(const std::string& text) {
    return error_of([&] { dsl::parse(text, "t.pto"); });
}

}  // namespace

TEST(ParserStatements, DefPositionalAndDefaultParameters) {
    EXPECT_EQ(tree("def f(x, k=2):\n    y = x * k\n    return y\n"),
              "(def f (x k=2) (assign (name y) (* (name x) (name k))) (return (name y)))\n");
    EXPECT_EQ(tree("def g(): return\n"), "(def g () (return _))\n");
    EXPECT_EQ(tree("def h(a, b):\n    return a, b\n"), "(def h (a b) (return (tuple (name a) (name b))))\n");
}

TEST(ParserStatements, DecoratorsWithArguments) {
    EXPECT_EQ(tree("@pypo.task(placement='cube')\ndef block(x):\n    pass\n"),
              "(def (@ (call (attr (name pypo) task) (kw placement \"cube\"))) block (x) (pass))\n");
    EXPECT_EQ(tree("@pypo.shape_hint({\n    'input': (None, 3, 224, 224),  # batch varies\n"
                   "    'conv1.weight': (64, 3, 7, 7)\n})\ndef model(input):\n    ...\n"),
              "(def (@ (call (attr (name pypo) shape_hint) (dict \"input\":(tuple None 3 224 224) "
              "\"conv1.weight\":(tuple 64 3 7 7)))) model (input) (expr ...))\n");
    EXPECT_EQ(tree("@pypo.task\n@pypo.shape_hint({})\ndef f(): pass\n"),
              "(def (@ (attr (name pypo) task)) (@ (call (attr (name pypo) shape_hint) (dict))) f () (pass))\n");
}

TEST(ParserStatements, ForLoops) {
    EXPECT_EQ(tree("for i in range(4):\n    x += i\n"),
              "(for (name i) (call (name range) 4) (+= (name x) (name i)))\n");
    EXPECT_EQ(tree("for i, x in enumerate(xs):\n    pass\n"),
              "(for (tuple (name i) (name x)) (call (name enumerate) (name xs)) (pass))\n");
    EXPECT_EQ(tree("for a, b in zip(p, q): continue\n"),
              "(for (tuple (name a) (name b)) (call (name zip) (name p) (name q)) (continue))\n");
    EXPECT_EQ(tree("for x in 1, 2:\n    if x: break\n"), "(for (name x) (tuple 1 2) (if (name x) (then (break))))\n");
}

TEST(ParserStatements, IfElifElse) {
    EXPECT_EQ(tree("if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    x = 3\nelse:\n    x = 4\n"),
              "(if (name a) (then (assign (name x) 1)) (else (if (name b) (then (assign (name x) 2)) "
              "(else (if (name c) (then (assign (name x) 3)) (else (assign (name x) 4)))))))\n");
    EXPECT_EQ(tree("if a: pass\nelse: pass\n"), "(if (name a) (then (pass)) (else (pass)))\n");
}

TEST(ParserStatements, WithStatements) {
    EXPECT_EQ(tree("with pypo.precision(mode='mixed'):\n    pass\n"),
              "(with ((call (attr (name pypo) precision) (kw mode \"mixed\"))) (pass))\n");
    EXPECT_EQ(tree("with pypo.mem.temp_cache() as cache, p():\n    pass\n"),
              "(with ((call (attr (attr (name pypo) mem) temp_cache)) as cache) ((call (name p))) (pass))\n");
}

TEST(ParserStatements, NestedBlocksAndDedents) {
    EXPECT_EQ(tree("def f(n):\n    for i in range(n):\n        if i:\n            return i\n    return 0\nx = f(2)\n"),
              "(def f (n) (for (name i) (call (name range) (name n)) (if (name i) (then (return (name i))))) "
              "(return 0))\n(assign (name x) (call (name f) 2))\n");
}

TEST(ParserExpressions, SlicesAndSubscriptAssignment) {
    EXPECT_EQ(tree("x[1:3]\n"), "(expr (index (name x) (slice 1 3 _)))\n");
    EXPECT_EQ(tree("x[:, 0]\n"), "(expr (index (name x) (tuple (slice _ _ _) 0)))\n");
    EXPECT_EQ(tree("x[::-1]\n"), "(expr (index (name x) (slice _ _ (- 1))))\n");
    EXPECT_EQ(tree("x[i:i+3, j:]\n"),
              "(expr (index (name x) (tuple (slice (name i) (+ (name i) 3) _) (slice (name j) _ _))))\n");
    EXPECT_EQ(tree("buf[:] = t\n"), "(assign (index (name buf) (slice _ _ _)) (name t))\n");
}

TEST(ParserExpressions, DictsNoneAndEllipsis) {
    EXPECT_EQ(tree("h = {'input': (None, 3), 'n': True,}\n"),
              "(assign (name h) (dict \"input\":(tuple None 3) \"n\":True))\n");
    EXPECT_EQ(tree("h = {}\n"), "(assign (name h) (dict))\n");
    EXPECT_EQ(tree("...\n"), "(expr ...)\n");
}

TEST(ParserExpressions, Comprehensions) {
    EXPECT_EQ(tree("p = [img[i:i+3, j:j+3] for i in range(H-2) for j in range(W-2)]\n"),
              "(assign (name p) (listcomp (index (name img) (tuple (slice (name i) (+ (name i) 3) _) "
              "(slice (name j) (+ (name j) 3) _))) (for (name i) (call (name range) (- (name H) 2))) "
              "(for (name j) (call (name range) (- (name W) 2)))))\n");
    EXPECT_EQ(tree("s = sum(x * x for x in xs if x > 0)\n"),
              "(assign (name s) (call (name sum) (listcomp (* (name x) (name x)) (for (name x) (name xs) "
              "(if (compare (name x) > 0))))))\n");
    EXPECT_EQ(tree("t = (k for k, v in d)\n"),
              "(assign (name t) (listcomp (name k) (for (tuple (name k) (name v)) (name d))))\n");
}

TEST(ParserStatementErrors, BlocksNeedIndentation) {
    EXPECT_EQ(parse_error("for i in range(4):\nx = 1\n"),
              "t.pto:2:1: error: expected an indented block after 'for' statement on line 1\nx = 1\n^\n");
    EXPECT_EQ(parse_error("def f(x):\n"),
              "t.pto:2:1: error: expected an indented block after function definition on line 1\n\n^\n");
    EXPECT_EQ(parse_error("if x\n    pass\n"), "t.pto:1:5: error: expected ':', found end of line\nif x\n    ^\n");
    EXPECT_EQ(parse_error("if x:\n    a = 1\n      b = 2\n"),
              "t.pto:3:7: error: unexpected indent\n      b = 2\n      ^\n");
    EXPECT_EQ(parse_error("if x: for i in y: pass\n"),
              "t.pto:1:7: error: 'for' must start a new line\nif x: for i in y: pass\n      ^\n");
}

TEST(ParserStatementErrors, FlowOutsideItsStatement) {
    EXPECT_EQ(parse_error("return 1\n"), "t.pto:1:1: error: 'return' outside function\nreturn 1\n^\n");
    EXPECT_EQ(parse_error("break\n"), "t.pto:1:1: error: 'break' outside loop\nbreak\n^\n");
    EXPECT_EQ(parse_error("for i in x:\n    def f():\n        continue\n"),
              "t.pto:3:9: error: 'continue' outside loop\n        continue\n        ^\n");
    EXPECT_EQ(parse_error("for i in x:\n    pass\nelse:\n    pass\n"),
              "t.pto:3:1: error: 'else' after a loop is outside the PyPTO language\nelse:\n^\n");
}

TEST(ParserStatementErrors, Parameters) {
    EXPECT_EQ(parse_error("def f(x, x): pass\n"),
              "t.pto:1:10: error: duplicate parameter 'x' in function definition\ndef f(x, x): pass\n         ^\n");
    EXPECT_EQ(parse_error("def f(k=1, x): pass\n"),
              "t.pto:1:12: error: parameter without a default follows parameter with a default\n"
              "def f(k=1, x): pass\n           ^\n");
    EXPECT_EQ(
        parse_error("def f(*args): pass\n"),
        "t.pto:1:7: error: variable arguments ('*') are outside the PyPTO language\ndef f(*args): pass\n      ^\n");
    EXPECT_EQ(parse_error("def f(x: int): pass\n"),
              "t.pto:1:8: error: annotations are outside the PyPTO language\ndef f(x: int): pass\n       ^\n");
    EXPECT_EQ(parse_error("def f(x) -> int: pass\n"),
              "t.pto:1:10: error: return annotations are outside the PyPTO language\ndef f(x) -> int: pass\n"
              "         ^\n");
    EXPECT_EQ(parse_error("def (x): pass\n"),
              "t.pto:1:5: error: expected a function name after 'def', found '('\ndef (x): pass\n    ^\n");
}

TEST(ParserStatementErrors, Decorators) {
    EXPECT_EQ(parse_error("@pypo.task(placement='cube')\nx = 1\n"),
              "t.pto:2:1: error: expected 'def' after a decorator, found 'x'\nx = 1\n^\n");
    EXPECT_EQ(parse_error("@pypo.task\nclass A: pass\n"),
              "t.pto:2:1: error: 'class' is outside the PyPTO language\nclass A: pass\n^\n");
}

TEST(ParserStatementErrors, WithTargetMustBeAName) {
    EXPECT_EQ(parse_error("with f() as (a, b):\n    pass\n"),
              "t.pto:1:13: error: the target of 'with ... as' must be a name\nwith f() as (a, b):\n            ^\n");
}

TEST(ParserExpressionErrors, SetsAndDictComprehensions) {
    EXPECT_EQ(parse_error("s = {1, 2}\n"),
              "t.pto:1:5: error: set literals are outside the PyPTO language\ns = {1, 2}\n    ^\n");
    EXPECT_EQ(parse_error("d = {k: 1 for k in x}\n"),
              "t.pto:1:11: error: dict comprehensions are outside the PyPTO language\nd = {k: 1 for k in x}\n"
              "          ^\n");
    EXPECT_EQ(parse_error("d = {'a' 1}\n"),
              "t.pto:1:10: error: expected ':' after a dict key, found '1'\nd = {'a' 1}\n"
              "         ^\n");
    EXPECT_EQ(parse_error("f(a, x for x in y)\n"),
              "t.pto:1:6: error: a generator expression must be parenthesized\nf(a, x for x in y)\n     ^\n");
    EXPECT_EQ(parse_error("l = [a, x for x in y]\n"),
              "t.pto:1:11: error: a comprehension must be the only element of its brackets\nl = [a, x for x in y]\n"
              "          ^\n");
}

TEST(ParserStatementErrors, IndentationDepthIsBounded) {
    std::string text;
    for (int k = 0; k < 120; ++k) text += std::string(size_t(k), ' ') + "if x:\n";
    text += std::string(120, ' ') + "pass\n";
    EXPECT_EQ(parse_error(text).substr(0, 53), "t.pto:101:101: error: too many levels of indentation\n");
}

TEST(ParserStatementErrors, NeverCrashesOnTruncatedPrograms) {
    std::string program =
        "import pypto as pypo\n@pypo.task(placement='cube')\ndef f(x, k=2):\n    for i, y in enumerate(x[1:]):\n"
        "        if i: continue\n        elif y: break\n    with pypo.precision(mode='mixed') as p:\n"
        "        return {'a': [v for v in x if v]}\n";
    for (size_t n = 0; n <= program.size(); ++n) {
        try {
            dsl::parse(program.substr(0, n), "t.pto");
        } catch (const dsl::CompileError& e) {
            EXPECT_NE(std::string(e.what()).find("error: "), std::string::npos);
        }
    }
}
