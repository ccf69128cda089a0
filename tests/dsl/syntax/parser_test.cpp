#include "dsl/syntax/parser.h"

#include "dsl/syntax/ast.h"
#include "tests/dsl/dsl_test_util.h"

using dsl_test::error_of;
using dsl_test::source;

namespace {

std::string tree(const std::string& text) { return dsl::ast::dump(dsl::parse(source(text))); }

std::string parse_error(const std::string& text) {
    return error_of([&] { dsl::parse(source(text)); });
}

}  // namespace

TEST(Parser, GemmProgram) {
    EXPECT_EQ(tree("import pypto as pypo\n"
                   "\n"
                   "M = 256\n"
                   "a = pypo.input(\"a\", shape=(M, M), dtype=\"float16\")\n"
                   "c = pypo.op.matmul(a, b)\n"
                   "pypo.output(\"c\", c)\n"),
              "(import pypto pypo)\n"
              "(assign (name M) 256)\n"
              "(assign (name a) (call (attr (name pypo) input) \"a\" (kw shape (tuple (name M) (name M))) "
              "(kw dtype \"float16\")))\n"
              "(assign (name c) (call (attr (attr (name pypo) op) matmul) (name a) (name b)))\n"
              "(expr (call (attr (name pypo) output) \"c\" (name c)))\n");
}

TEST(Parser, ArithmeticPrecedence) {
    EXPECT_EQ(tree("1 + 2 * 3 - 4\n"), "(expr (- (+ 1 (* 2 3)) 4))\n");
    EXPECT_EQ(tree("a // b % c * d / e\n"), "(expr (/ (* (% (// (name a) (name b)) (name c)) (name d)) (name e)))\n");
    EXPECT_EQ(tree("(1 + 2) * 3\n"), "(expr (* (+ 1 2) 3))\n");
}

TEST(Parser, PowerIsRightAssociativeAndBindsTighterThanUnaryMinusOnItsLeft) {
    EXPECT_EQ(tree("-2 ** 2\n"), "(expr (- (** 2 2)))\n");
    EXPECT_EQ(tree("2 ** 3 ** 2\n"), "(expr (** 2 (** 3 2)))\n");
    EXPECT_EQ(tree("2 ** -1\n"), "(expr (** 2 (- 1)))\n");
    EXPECT_EQ(tree("-+~x\n"), "(expr (- (+ (~ (name x)))))\n");
}

TEST(Parser, BitwiseAndShiftLevels) {
    EXPECT_EQ(tree("a | b ^ c & d << 1 + 2\n"),
              "(expr (| (name a) (^ (name b) (& (name c) (<< (name d) (+ 1 2))))))\n");
}

TEST(Parser, ComparisonsBooleansAndConditional) {
    EXPECT_EQ(tree("a < b <= c\n"), "(expr (compare (name a) < (name b) <= (name c)))\n");
    EXPECT_EQ(tree("x not in y\n"), "(expr (compare (name x) not in (name y)))\n");
    EXPECT_EQ(tree("x is not None\n"), "(expr (compare (name x) is not None))\n");
    EXPECT_EQ(tree("not a == b\n"), "(expr (not (compare (name a) == (name b))))\n");
    EXPECT_EQ(tree("a or b and not c\n"), "(expr (or (name a) (and (name b) (not (name c)))))\n");
    EXPECT_EQ(tree("x = 1 if a or b else 2 if c else 3\n"),
              "(assign (name x) (if (or (name a) (name b)) 1 (if (name c) 2 3)))\n");
}

TEST(Parser, CallsWithPositionalAndKeywordArguments) {
    EXPECT_EQ(tree("f(a, b, tile=64, target='L0',)\n"),
              "(expr (call (name f) (name a) (name b) (kw tile 64) (kw target \"L0\")))\n");
    EXPECT_EQ(tree("f()\n"), "(expr (call (name f)))\n");
    EXPECT_EQ(tree("f(x == 1)\n"), "(expr (call (name f) (compare (name x) == 1)))\n");
}

TEST(Parser, SubscriptsTuplesAndLists) {
    EXPECT_EQ(tree("a.shape[0]\n"), "(expr (index (attr (name a) shape) 0))\n");
    EXPECT_EQ(tree("m[i, -1]\n"), "(expr (index (name m) (tuple (name i) (- 1))))\n");
    EXPECT_EQ(tree("t = ()\n"), "(assign (name t) (tuple))\n");
    EXPECT_EQ(tree("t = (1,)\n"), "(assign (name t) (tuple 1))\n");
    EXPECT_EQ(tree("t = 1, 2,\n"), "(assign (name t) (tuple 1 2))\n");
    EXPECT_EQ(tree("l = [1, [2], 'x']\n"), "(assign (name l) (list 1 (list 2) \"x\"))\n");
    EXPECT_EQ(tree("s = 'a' \"b\"\n"), "(assign (name s) \"ab\")\n");
}

TEST(Parser, AssignmentTargets) {
    EXPECT_EQ(tree("a, b = b, a\n"), "(assign (tuple (name a) (name b)) (tuple (name b) (name a)))\n");
    EXPECT_EQ(tree("(a, [b, c]) = x\n"), "(assign (tuple (name a) (list (name b) (name c))) (name x))\n");
    EXPECT_EQ(tree("pypo.config.MAX_PARALLEL = 8\n"), "(assign (attr (attr (name pypo) config) MAX_PARALLEL) 8)\n");
    EXPECT_EQ(tree("a = b = 1\n"), "(assign (name a) (name b) 1)\n");
    EXPECT_EQ(tree("n += 2 * k\n"), "(+= (name n) (* 2 (name k)))\n");
}

TEST(Parser, ImportsPassAndSemicolons) {
    EXPECT_EQ(tree("import pypo\nimport pypto as pypo\n"), "(import pypo pypo)\n(import pypto pypo)\n");
    EXPECT_EQ(tree("pass; x = 1;\n"), "(pass)\n(assign (name x) 1)\n");
}

TEST(Parser, LocationsPointAtTheStartOfEachNode) {
    dsl::ast::Module m = dsl::parse(source("x = 1\nc = pypo.op.matmul(a, b)\n"));
    ASSERT_EQ(m.body.size(), 2u);
    const auto& assign = m.body[1]->as<dsl::ast::Assign>();
    EXPECT_EQ(assign.loc.line, 2);
    const auto& call = assign.value->as<dsl::ast::Call>();
    EXPECT_EQ(call.loc.col, 5);
    EXPECT_EQ(call.open_loc.col, 19);
    EXPECT_EQ(call.args[1]->loc.col, 23);
    EXPECT_EQ(call.func->as<dsl::ast::Attribute>().attr_loc.col, 13);
}

TEST(ParserErrors, UnclosedBracketNamesTheOpener) {
    EXPECT_EQ(parse_error("x = 1\ny = 2\nc = f(a, b]\n"),
              "t.pto:3:11: error: expected ')' to close '(' opened at 3:6\nc = f(a, b]\n          ^\n");
    EXPECT_EQ(parse_error("c = f(a b)\n"),
              "t.pto:1:9: error: expected ')' to close '(' opened at 1:6\nc = f(a b)\n        ^\n");
}

TEST(ParserErrors, BracketNeverClosedPointsAtTheOpener) {
    EXPECT_EQ(parse_error("a = pypo.input('a',\n    shape=(4, 4)\n"),
              "t.pto:1:15: error: '(' was never closed\na = pypo.input('a',\n              ^\n");
}

TEST(ParserErrors, MissingExpression) {
    EXPECT_EQ(parse_error("x = \n"), "t.pto:1:5: error: expected an expression, found end of line\nx = \n    ^\n");
    EXPECT_EQ(parse_error("x = 1 +\n"),
              "t.pto:1:8: error: expected an expression, found end of line\nx = 1 +\n       ^\n");
    EXPECT_EQ(parse_error("x = (1, *y)\n"),
              "t.pto:1:9: error: expected an expression, found '*'\nx = (1, *y)\n        ^\n");
}

TEST(ParserErrors, JunkAfterStatement) {
    EXPECT_EQ(parse_error("x = 3 4\n"), "t.pto:1:7: error: expected end of statement, found '4'\nx = 3 4\n      ^\n");
}

TEST(ParserErrors, UnexpectedIndent) {
    EXPECT_EQ(parse_error("x = 1\n  y = 2\n"), "t.pto:2:3: error: unexpected indent\n  y = 2\n  ^\n");
}

TEST(ParserErrors, OnlyThePypoImportsAreAllowed) {
    const char* msg = "only 'import pypto as pypo', 'import pypto' and 'import pypo' are supported";
    EXPECT_EQ(parse_error("import os\n"), std::string("t.pto:1:8: error: ") + msg + "\nimport os\n       ^\n");
    EXPECT_EQ(parse_error("import pypto as np\n"),
              std::string("t.pto:1:8: error: ") + msg + "\nimport pypto as np\n       ^\n");
    EXPECT_EQ(parse_error("from pypto import op\n"),
              std::string("t.pto:1:1: error: ") + msg + "\nfrom pypto import op\n^\n");
    EXPECT_EQ(tree("import pypto\n"), "(import pypto pypto)\n");
}

TEST(ParserErrors, PythonOutsideTheLanguage) {
    EXPECT_EQ(parse_error("class A:\n    pass\n"),
              "t.pto:1:1: error: 'class' is outside the PyPTO language\nclass A:\n^\n");
    EXPECT_EQ(parse_error("while True:\n    pass\n"),
              "t.pto:1:1: error: 'while' is outside the PyPTO language\nwhile True:\n^\n");
    EXPECT_EQ(parse_error("try:\n    pass\n"), "t.pto:1:1: error: 'try' is outside the PyPTO language\ntry:\n^\n");
    EXPECT_EQ(parse_error("global x\n"), "t.pto:1:1: error: 'global' is outside the PyPTO language\nglobal x\n^\n");
    EXPECT_EQ(parse_error("f = lambda x: x\n"),
              "t.pto:1:5: error: 'lambda' is outside the PyPTO language\nf = lambda x: x\n    ^\n");
    EXPECT_EQ(parse_error("del x\n"), "t.pto:1:1: error: 'del' is outside the PyPTO language\ndel x\n^\n");
    EXPECT_EQ(parse_error("x = (y := 3)\n"),
              "t.pto:1:8: error: ':=' is outside the PyPTO language\nx = (y := 3)\n       ^\n");
}

TEST(ParserErrors, BadAssignmentTargets) {
    EXPECT_EQ(parse_error("f(x) = 1\n"), "t.pto:1:1: error: cannot assign to function call\nf(x) = 1\n^\n");
    EXPECT_EQ(parse_error("a, 3 = x\n"), "t.pto:1:4: error: cannot assign to literal\na, 3 = x\n   ^\n");
    EXPECT_EQ(parse_error("a + b = x\n"), "t.pto:1:1: error: cannot assign to expression\na + b = x\n^\n");
    EXPECT_EQ(parse_error("a, b += 1\n"),
              "t.pto:1:1: error: 'tuple' is an illegal expression for augmented assignment\na, b += 1\n^\n");
}

TEST(ParserErrors, CallArgumentRules) {
    EXPECT_EQ(parse_error("f(tile=1, a)\n"),
              "t.pto:1:11: error: positional argument follows keyword argument\nf(tile=1, a)\n          ^\n");
    EXPECT_EQ(parse_error("f(tile=1, tile=2)\n"),
              "t.pto:1:11: error: keyword argument repeated: 'tile'\nf(tile=1, tile=2)\n          ^\n");
    EXPECT_EQ(parse_error("f(*args)\n"),
              "t.pto:1:3: error: argument unpacking ('*') is outside the PyPTO language\nf(*args)\n  ^\n");
}

TEST(ParserErrors, MiscellaneousSyntax) {
    EXPECT_EQ(parse_error("else:\n    pass\n"), "t.pto:1:1: error: invalid syntax\nelse:\n^\n");
    EXPECT_EQ(parse_error("x = a.\n"),
              "t.pto:1:7: error: expected an attribute name after '.', found end of line\nx = a.\n      ^\n");
    EXPECT_EQ(parse_error("x = a if b\n"),
              "t.pto:1:11: error: expected 'else' in conditional expression, found end of line\nx = a if b\n"
              "          ^\n");
    EXPECT_EQ(parse_error("M: int = 3\n"),
              "t.pto:1:2: error: variable annotations are outside the PyPTO language\nM: int = 3\n ^\n");
}

// The parser must report, never crash, whatever it is given.
TEST(ParserErrors, NeverCrashesOnTruncatedPrograms) {
    std::string program =
        "import pypto as pypo\nM = 2 ** 8\na = pypo.input(\"a\", shape=(M, M), dtype=\"float16\")\n"
        "c = pypo.op.matmul(a, a) if not M < 3 else [a, (a,)][0]\npypo.output(\"c\", c)\n";
    for (size_t n = 0; n <= program.size(); ++n) {
        try {
            dsl::parse(source(program.substr(0, n)));
        } catch (const dsl::CompileError& e) {
            EXPECT_NE(std::string(e.what()).find("error: "), std::string::npos);
        }
    }
}

// Hostile nesting is an error, not a stack overflow.
TEST(ParserErrors, NestingIsBounded) {
    std::string deep_parens = "x = " + std::string(300, '(') + "1" + std::string(300, ')') + "\n";
    // The lines are longer than a diagnostic quotes: a window, from "...".
    EXPECT_EQ(parse_error(deep_parens).substr(0, 52), "t.pto:1:205: error: too many nested parentheses\n...(");
    std::string minus = "x = " + std::string(5000, '-') + "1\n";
    EXPECT_EQ(parse_error(minus).substr(0, 56), "t.pto:1:1004: error: expression is nested too deeply\n...");
    std::string sum = "x = 1";
    for (int k = 0; k < 5000; ++k) sum += "+1";
    EXPECT_EQ(parse_error(sum + "\n").substr(0, 56), "t.pto:1:2004: error: expression is nested too deeply\n...");
    std::string power = "x = 1";
    for (int k = 0; k < 5000; ++k) power += "**1";
    EXPECT_NE(parse_error(power + "\n").find("error: expression is nested too deeply"), std::string::npos);
}
