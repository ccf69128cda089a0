// The elaborator's control flow and functions: loops unrolled, plain defs
// inlined, @pypo.task calls as coarse tasks, limits on runaway programs.
#include "dsl/frontend/frontend.h"
#include "tests/dsl/dsl_test_util.h"

using dsl_test::error_of;
using dsl_test::source;

namespace {

using dsl_test::elaborate;
using dsl_test::elaborate_error;
using dsl_test::Shapes;

const char* const kHeader =
    "import pypto as pypo\n"
    "a = pypo.input('a', shape=(16, 16))\n";

// The value of `x` after `body`, read back through a tensor shape.
int64_t value_of(const std::string& body) {
    dsl::TaskGraph g = elaborate(std::string(kHeader) + body + "\nz = pypo.input('z', shape=(x,))\n" +
                                 "pypo.output('o', pypo.op.matmul(a, a))\n");
    for (const auto& t : g.tensors)
        if (t.name == "z") return t.shape[0];
    return -1;
}

}  // namespace

TEST(ElaboratorFlow, LoopsAreUnrolled) {
    EXPECT_EQ(value_of("x = 0\nfor i in range(5):\n    x += i"), 10);
    EXPECT_EQ(value_of("x = 0\nfor i in range(10, 0, -3):\n    x = x * 100 + i"), 10070401);
    EXPECT_EQ(value_of("x = 0\nfor i, v in enumerate([5, 6, 7]):\n    x += i * v"), 20);
    EXPECT_EQ(value_of("x = 0\nfor p, q in zip((1, 2, 3), [10, 20]):\n    x += p * q"), 50);
    EXPECT_EQ(value_of("x = 0\nfor i in range(100):\n    if i == 3:\n        break\n    if i == 1:\n        continue\n"
                       "    x += 10 + i"),
              22);
    EXPECT_EQ(value_of("x = 0\nfor c in 'abc':\n    x += 1\nfor k in {'p': 1, 'q': 2}:\n    x += len(k)"), 5);
}

TEST(ElaboratorFlow, IfElifElse) {
    EXPECT_EQ(value_of("n = 7\nif n < 5:\n    x = 1\nelif n < 10:\n    x = 2\nelse:\n    x = 3"), 2);
    EXPECT_EQ(value_of("n = 70\nif n < 5:\n    x = 1\nelif n < 10:\n    x = 2\nelse:\n    x = 3"), 3);
}

TEST(ElaboratorFlow, SequencesSlicesDictsAndComprehensions) {
    EXPECT_EQ(value_of("x = sum((1, 2, 3, 4, 5)[1:4])"), 9);
    EXPECT_EQ(value_of("x = [1, 2, 3, 4, 5][::-2][1]"), 3);
    EXPECT_EQ(value_of("x = len('abcdef'[-4:])"), 4);
    EXPECT_EQ(value_of("d = {'input': (None, 3, 224, 224)}\nd['k'] = 5\nx = d['input'][2] + d['k'] + len(d)"), 231);
    EXPECT_EQ(value_of("x = sum([i * j for i in range(3) for j in range(3) if i != j])"), 4);
    EXPECT_EQ(value_of("i = 40\nx = sum(i for i in range(4)) + i"), 46);
    EXPECT_EQ(value_of("l = []\nfor k in range(4):\n    l.append(k)\nl.extend([10])\nl[0] = 7\nx = sum(l)"), 23);
    EXPECT_EQ(value_of("x = max(3, 9, 4) + min([5, 2]) + abs(-4) + int(2.9) + int('12') + round(2.5)"), 31);
    EXPECT_EQ(value_of("x = len(list(range(3)) + list((1,))) + len(tuple('ab')) + sorted([3, 1, 2])[0]"), 7);
    EXPECT_EQ(value_of("x = int(float('1.5') * 2) + len(str(123)) + any([0, 1]) + all([])"), 8);
    EXPECT_EQ(value_of("d = dict(a=1)\nx = d.get('a') + d.get('b', 5) + len(d.items()) + sum(d.values())"), 8);
}

TEST(ElaboratorFunctions, PlainFunctionsAreInlinedWithTheirOwnScope) {
    EXPECT_EQ(value_of("K = 3\ndef f(n, m=K):\n    k = n * m\n    return k\nK = 100\nk = 1\nx = f(2) + f(1, m=4) + k"),
              11);
    // Module globals are read at call time; a nested def sees its enclosing scope.
    EXPECT_EQ(value_of("def outer(n):\n    def inner(m):\n        return n + m + G\n    return inner(1)\nG = 10\n"
                       "x = outer(5)"),
              16);
    EXPECT_EQ(value_of("def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nx = fact(5)"), 120);
    EXPECT_EQ(value_of("def f():\n    pass\nx = 1 if f() is None else 2"), 1);
}

TEST(ElaboratorFunctions, CallErrors) {
    std::string p = std::string(kHeader) + "def f(x, k=2):\n    return x\n";
    EXPECT_EQ(elaborate_error(p + "y = f()\n"), "t.pto:5:5: error: f: missing required argument 'x'\ny = f()\n    ^\n");
    EXPECT_EQ(elaborate_error(p + "y = f(1, 2, 3)\n"),
              "t.pto:5:13: error: f: takes 2 positional arguments but 3 were given\ny = f(1, 2, 3)\n            ^\n");
    EXPECT_NE(elaborate_error(p + "y = f(1, z=2)\n").find("t.pto:5:10: error: f: unexpected keyword argument 'z'"),
              std::string::npos);
    EXPECT_EQ(elaborate_error(p + "y = 3(1)\n"), "t.pto:5:5: error: 'int' object is not callable\ny = 3(1)\n    ^\n");
}

TEST(ElaboratorFunctions, TasksAreNamedPerCallWithParents) {
    dsl::TaskGraph g = elaborate(std::string(kHeader) +
                                 "@pypo.task(placement='vector')\n"
                                 "def inner(x):\n"
                                 "    return pypo.op.relu(x)\n"
                                 "def helper(x):\n"
                                 "    return pypo.op.matmul(x, x)\n"
                                 "@pypo.task(placement='cube')\n"
                                 "def block(x):\n"
                                 "    y = helper(x)\n"
                                 "    return inner(y)\n"
                                 "@pypo.task\n"
                                 "def plain(x):\n"
                                 "    return pypo.op.matmul(x, x)\n"
                                 "b1 = block(a)\n"
                                 "b2 = block(b1)\n"
                                 "c = pypo.op.matmul(b2, plain(b2))\n"
                                 "pypo.output('c', c)\n");
    ASSERT_EQ(g.tasks.size(), 5u);
    EXPECT_EQ(g.tasks[0].name, "block");
    EXPECT_EQ(g.tasks[0].placement, "cube");
    EXPECT_EQ(g.tasks[0].parent, -1);
    EXPECT_EQ(g.tasks[0].ops, (std::vector<int>{0}));  // helper's matmul is inlined into the task
    EXPECT_EQ(g.tasks[0].loc.line, 15);
    EXPECT_EQ(g.tasks[1].name, "inner");
    EXPECT_EQ(g.tasks[1].placement, "vector");
    EXPECT_EQ(g.tasks[1].parent, 0);
    EXPECT_EQ(g.tasks[1].ops, (std::vector<int>{1}));
    EXPECT_EQ(g.tasks[2].name, "block#2");
    EXPECT_EQ(g.tasks[2].ops, (std::vector<int>{2}));
    EXPECT_EQ(g.tasks[3].name, "inner#2");
    EXPECT_EQ(g.tasks[3].parent, 2);
    EXPECT_EQ(g.tasks[4].name, "plain");
    EXPECT_EQ(g.tasks[4].placement, "any");
    ASSERT_EQ(g.ops.size(), 6u);
    EXPECT_EQ(g.ops[0].task, 0);
    EXPECT_EQ(g.ops[1].task, 1);
    EXPECT_EQ(g.ops[4].task, 4);
    EXPECT_EQ(g.ops[5].task, -1);  // back at the top level after the calls
    EXPECT_EQ(g.tensors[size_t(g.ops[1].output)].task, 1);
}

TEST(ElaboratorFunctions, DecoratorErrors) {
    std::string p = std::string(kHeader);
    EXPECT_EQ(elaborate_error(p + "@pypo.task(placement='gpu')\ndef f(x):\n    pass\n"),
              "t.pto:3:22: error: pypo.task: placement must be 'cube', 'vector' or 'any', got 'gpu'\n"
              "@pypo.task(placement='gpu')\n                     ^\n");
    EXPECT_EQ(elaborate_error(p + "@len\ndef f(x):\n    pass\n"),
              "t.pto:3:2: error: unsupported decorator: PyPTO functions take @pypo.task(placement=...) and "
              "@pypo.shape_hint({...})\n@len\n ^\n");
    EXPECT_EQ(elaborate_error(p + "t = pypo.task(placement='cube')\n"),
              "t.pto:3:5: error: pypo.task is a decorator: write @pypo.task(...) on the line above a def\n"
              "t = pypo.task(placement='cube')\n    ^\n");
}

TEST(ElaboratorLimits, RecursionDepth) {
    EXPECT_EQ(elaborate_error(std::string(kHeader) + "def f(n):\n    return f(n + 1)\nx = f(0)\n"),
              "t.pto:4:12: error: recursion too deep (limit 200) calling 'f'\n    return f(n + 1)\n           ^\n");
}

TEST(ElaboratorLimits, LoopIterations) {
    EXPECT_EQ(
        elaborate_error(std::string(kHeader) + "for i in range(1000):\n    for j in range(1001):\n        pass\n"),
        "t.pto:4:5: error: too many loop iterations (the limit is 1000000 for the whole program): loops are "
        "unrolled at compile time\n    for j in range(1001):\n    ^\n");
    EXPECT_EQ(elaborate_error(std::string(kHeader) + "r = range(10 ** 9)\n"),
              "t.pto:3:5: error: range: too many elements (the limit is 1048576)\nr = range(10 ** 9)\n    ^\n");
}

TEST(ElaboratorLimits, ExponentialCallsAreCapped) {
    std::string err = elaborate_error(std::string(kHeader) +
                                      "def f(n):\n    if n > 0:\n        f(n - 1)\n        f(n - 1)\n"
                                      "f(40)\n");
    EXPECT_NE(err.find("error: too many function calls (the limit is 1000000 for the whole program)"),
              std::string::npos)
        << err;
}

TEST(ElaboratorLimits, DeepExpressionsInDeepRecursionDoNotOverflowTheStack) {
    // Each call is evaluated 900 unary operators deep.
    std::string err = elaborate_error(std::string(kHeader) + "def f(n):\n    return " + std::string(900, '-') +
                                      "f(n + 1)\nx = f(0)\n");
    EXPECT_NE(err.find("error: program nests too deeply"), std::string::npos) << err.substr(0, 200);
}

// Whatever prefix of a program it is given, the front end reports; it never crashes.
TEST(ElaboratorRobustness, EveryPrefixOfARichProgramIsHandled) {
    std::string program =
        "import pypto as pypo\n"
        "@pypo.shape_hint({'x': (None, 16), 'w.weight': (16, 16)})\n"
        "@pypo.task(placement='cube')\n"
        "def model(x, k=2):\n"
        "    w = pypo.weight('w.weight')\n"
        "    buf = pypo.mem.alloc_l1(shape=(16, 16))\n"
        "    buf[:] = w\n"
        "    ys = []\n"
        "    for i, s in enumerate([1, 2][:k]):\n"
        "        with pypo.precision(mode='mixed'), pypo.mem.temp_cache() as c:\n"
        "            ys.append(pypo.op.matmul(x, buf))\n"
        "        if i > 5: break\n"
        "        elif s: continue\n"
        "    pypo.log('done', {'n': len(ys)}, sep='|')\n"
        "    return tuple(ys)\n";
    for (size_t n = 0; n <= program.size(); ++n) {
        try {
            elaborate(program.substr(0, n), {{"x", {4, 16}}});
        } catch (const dsl::CompileError& e) {
            EXPECT_NE(std::string(e.what()).find("error: "), std::string::npos);
        }
    }
    dsl::TaskGraph g = elaborate(program, {{"x", {4, 16}}});
    EXPECT_EQ(g.tasks.size(), 1u);
    EXPECT_EQ(g.ops.size(), 2u);
    EXPECT_EQ(g.moves.size(), 1u);
    EXPECT_EQ(g.temp_caches.size(), 2u);
    EXPECT_EQ(g.logs.size(), 1u);
    EXPECT_EQ(g.logs[0].text, "done|{'n': 2}");
}
