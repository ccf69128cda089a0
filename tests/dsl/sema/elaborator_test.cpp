#include <cstdio>
#include <fstream>

#include "dsl/frontend/frontend.h"
#include "tests/dsl/dsl_test_util.h"

using dsl_test::error_of;
using dsl_test::source;

namespace {

const char* const kGemm =
    "import pypto as pypo\n"
    "\n"
    "M = 256\n"
    "a = pypo.input(\"a\", shape=(M, M), dtype=\"float16\")\n"
    "b = pypo.input(\"b\", shape=(M, M), dtype=\"float16\")\n"
    "c = pypo.op.matmul(a, b)\n"
    "pypo.output(\"c\", c)\n";

dsl::TaskGraph run(const std::string& text) { return dsl::elaborate_source(source(text)); }

std::string run_error(const std::string& text) {
    return error_of([&] { run(text); });
}

// A program with `body` between the import and a trivial output.
std::string program(const std::string& body) {
    return "import pypto as pypo\n"
           "a = pypo.input(\"a\", shape=(64, 32))\n"
           "b = pypo.input(\"b\", shape=(32, 16))\n" +
           body + "\npypo.output(\"out\", pypo.op.matmul(a, b))\n";
}

// The value a program computes for `x`, read back through a tensor shape.
int64_t int_result(const std::string& expr) {
    dsl::TaskGraph g = run(program("x = " + expr + "\nz = pypo.input(\"z\", shape=(x,))"));
    return g.tensors[2].shape[0];
}

}  // namespace

TEST(Elaborator, GemmProgram) {
    dsl::TaskGraph g = run(kGemm);
    ASSERT_EQ(g.tensors.size(), 3u);
    ASSERT_EQ(g.ops.size(), 1u);
    // Top-level operations belong to no coarse task.
    EXPECT_TRUE(g.tasks.empty());
    EXPECT_EQ(g.ops[0].task, -1);

    EXPECT_EQ(g.tensors[0].name, "a");
    EXPECT_EQ(g.tensors[0].role, dsl::TensorRole::Input);
    EXPECT_EQ(g.tensors[0].shape, (std::vector<int64_t>{256, 256}));
    EXPECT_EQ(g.tensors[0].dtype, arch::DType::Float16);
    EXPECT_EQ(g.tensors[0].producer, -1);
    EXPECT_EQ(g.tensors[0].loc.line, 4);
    EXPECT_EQ(g.tensors[0].loc.col, 5);
    EXPECT_EQ(g.tensors[1].name, "b");
    EXPECT_EQ(g.tensors[2].name, "c");
    EXPECT_EQ(g.tensors[2].role, dsl::TensorRole::Output);
    EXPECT_EQ(g.tensors[2].shape, (std::vector<int64_t>{256, 256}));
    EXPECT_EQ(g.tensors[2].producer, 0);
    EXPECT_EQ(g.tensors[2].loc.line, 6);

    const dsl::OpNode& op = g.ops[0];
    EXPECT_EQ(op.kind, dsl::OpKind::Matmul);
    EXPECT_EQ(op.inputs, (std::vector<int>{0, 1}));
    EXPECT_EQ(op.output, 2);
    EXPECT_EQ(op.task, -1);
    EXPECT_EQ(op.loc.line, 6);
    EXPECT_EQ(op.loc.col, 5);
    EXPECT_EQ(g.max_parallel, 0);
}

TEST(Elaborator, RectangularFloat32ChainWithGeneratedNames) {
    dsl::TaskGraph g =
        run("import pypo\n"
            "M, K, N = 128, 64, 32\n"
            "x = pypo.input(\"x\", (M, K), \"float32\")\n"
            "w1 = pypo.input(name=\"w1\", shape=[K, N], dtype=\"float32\")\n"
            "w2 = pypo.input(\"w2\", shape=(w1.shape[1], 16), dtype=x.dtype)\n"
            "h = pypo.op.matmul(x, w1)\n"
            "y = pypo.op.matmul(a=h, b=w2)\n"
            "pypo.output(\"y\", y)\n");
    ASSERT_EQ(g.tensors.size(), 5u);
    EXPECT_EQ(g.tensors[3].name, "matmul_1");
    EXPECT_EQ(g.tensors[3].role, dsl::TensorRole::Intermediate);
    EXPECT_EQ(g.tensors[3].shape, (std::vector<int64_t>{128, 32}));
    EXPECT_EQ(g.tensors[3].dtype, arch::DType::Float32);
    EXPECT_EQ(g.tensors[4].name, "y");
    EXPECT_EQ(g.tensors[4].shape, (std::vector<int64_t>{128, 16}));
    EXPECT_EQ(g.ops[1].inputs, (std::vector<int>{3, 2}));
    EXPECT_TRUE(g.tasks.empty());
}

TEST(Elaborator, GeneratedNamesSkipNamesTheProgramTook) {
    dsl::TaskGraph g = run(program("m = pypo.input(\"matmul_1\", shape=(16, 8))"));
    EXPECT_EQ(g.tensors.back().name, "out");
    dsl::TaskGraph h = run(program("t = pypo.op.matmul(a, b)\nu = pypo.input(\"matmul_3\", shape=(1,))"));
    EXPECT_EQ(h.tensors[2].name, "matmul_1");
}

// The reverse: a name the compiler generated gives way when the program
// names a tensor so later (found by fuzz_topology: a layer called
// "conv2d_1" whose own convolution was generated as "conv2d_1").
TEST(Elaborator, GeneratedNamesGiveWayToTheProgramsNames) {
    dsl::TaskGraph same = run(program("t = pypo.op.relu(a)\npypo.output(\"relu_1\", t)"));
    EXPECT_EQ(same.tensors[2].name, "relu_1");
    EXPECT_EQ(same.tensors[2].role, dsl::TensorRole::Output);
    dsl::TaskGraph other = run(program("t = pypo.op.relu(a)\nu = pypo.op.relu(t)\npypo.output(\"relu_1\", u)"));
    EXPECT_EQ(other.tensors[2].name, "relu_3");
    EXPECT_EQ(other.tensors[3].name, "relu_1");
    dsl::TaskGraph input = run(program("t = pypo.op.relu(a)\nz = pypo.input(\"relu_1\", shape=(4,))"));
    EXPECT_EQ(input.tensors[2].name, "relu_2");
    EXPECT_EQ(input.tensors[3].name, "relu_1");
}

TEST(Elaborator, MaxParallel) {
    dsl::TaskGraph g = run(program("pypo.config.MAX_PARALLEL = 2 * 4"));
    EXPECT_EQ(g.max_parallel, 8);
    EXPECT_EQ(run_error(program("pypo.config.MAX_PARALLEL = 0")),
              "t.pto:4:28: error: pypo.config.MAX_PARALLEL must be a positive integer, got 0\n"
              "pypo.config.MAX_PARALLEL = 0\n                           ^\n");
    EXPECT_EQ(run_error(program("pypo.config.MAX_THREADS = 4")),
              "t.pto:4:13: error: pypo.config has no setting 'MAX_THREADS'\n"
              "pypo.config.MAX_THREADS = 4\n            ^\n");
}

TEST(Elaborator, IntegerArithmeticFollowsPython) {
    EXPECT_EQ(int_result("2048 // 2"), 1024);
    EXPECT_EQ(int_result("-7 // 2 + 10"), 6);
    EXPECT_EQ(int_result("-7 % 3"), 2);
    EXPECT_EQ(int_result("2 ** 10"), 1024);
    EXPECT_EQ(int_result("1 << 4 | 1"), 17);
    EXPECT_EQ(int_result("len((1, 2, 3)) + len([]) + len('ab')"), 5);
    EXPECT_EQ(int_result("(3, 4)[-1]"), 4);
    EXPECT_EQ(int_result("5 if 1 < 2 < 3 else 6"), 5);
    EXPECT_EQ(int_result("0 or 7"), 7);
    EXPECT_EQ(int_result("(1, 2) + (3,) == (1, 2, 3) and 9"), 9);
    EXPECT_EQ(int_result("len((0,) * 4) if 'b' in 'abc' else 1"), 4);
}

TEST(Elaborator, FloatValuesAreNotShapes) {
    EXPECT_EQ(run_error(program("z = pypo.input(\"z\", shape=(1e-3 * 2.5, 4 / 2))")),
              "t.pto:4:28: error: pypo.input: shape[0] must be an integer, got float\n"
              "z = pypo.input(\"z\", shape=(1e-3 * 2.5, 4 / 2))\n                           ^\n");
}

TEST(Elaborator, DivisionByZeroPointsAtTheOperator) {
    EXPECT_EQ(run_error(program("K = 4\nN = K // (K - 4)")),
              "t.pto:5:7: error: division by zero\nN = K // (K - 4)\n      ^\n");
    EXPECT_EQ(run_error(program("N = 1.0 % 0")), "t.pto:4:9: error: modulo by zero\nN = 1.0 % 0\n        ^\n");
}

TEST(Elaborator, IntegerOverflowIsAnError) {
    EXPECT_EQ(run_error(program("N = 2 ** 62 * 2")),
              "t.pto:4:13: error: integer overflow: the result does not fit in 64 bits\nN = 2 ** 62 * 2\n"
              "            ^\n");
}

TEST(Elaborator, TupleUnpacking) {
    EXPECT_EQ(int_result("1\nM, (N, K) = 3, [4, 5]\nx = M * 100 + N * 10 + K"), 345);
    EXPECT_EQ(run_error(program("p, q = (1, 2, 3)")),
              "t.pto:4:1: error: too many values to unpack (expected 2, got 3)\np, q = (1, 2, 3)\n^\n");
}

TEST(Elaborator, PypoMustBeImportedFirst) {
    EXPECT_EQ(run_error("a = pypo.input(\"a\", shape=(4, 4))\nimport pypto as pypo\n"),
              "t.pto:1:5: error: name 'pypo' is not defined\na = pypo.input(\"a\", shape=(4, 4))\n    ^\n");
}

TEST(Elaborator, UndefinedNamesAndBuiltinsOutsideTheLanguage) {
    EXPECT_EQ(run_error(program("x = K")), "t.pto:4:5: error: name 'K' is not defined\nx = K\n    ^\n");
    EXPECT_EQ(run_error(program("f = open('x')")),
              "t.pto:4:5: error: built-in 'open' is outside the PyPTO language\nf = open('x')\n    ^\n");
}

TEST(Elaborator, MatmulInnerDimensionsDiffer) {
    EXPECT_EQ(run_error("import pypto as pypo\n"
                        "a = pypo.input(\"a\", shape=(256, 128))\n"
                        "b = pypo.input(\"b\", shape=(64, 256))\n"
                        "c = pypo.op.matmul(a, b)\n"
                        "pypo.output(\"c\", c)\n"),
              "t.pto:4:5: error: matmul: inner dimensions differ: a is (256, 128) float16, b is (64, 256) float16\n"
              "c = pypo.op.matmul(a, b)\n"
              "    ^\n");
}

TEST(Elaborator, MatmulNamesOperandsByRoleWhenNotPlainNames) {
    EXPECT_EQ(run_error(program("c = pypo.op.matmul(pypo.op.matmul(a, b), b)")),
              "t.pto:4:5: error: matmul: inner dimensions differ: lhs is (64, 16) float16, b is (32, 16) float16\n"
              "c = pypo.op.matmul(pypo.op.matmul(a, b), b)\n    ^\n");
}

TEST(Elaborator, MatmulOperandChecks) {
    EXPECT_EQ(run_error(program("c = pypo.op.matmul(a, 3)")),
              "t.pto:4:23: error: matmul: rhs must be a tensor, got int\nc = pypo.op.matmul(a, 3)\n"
              "                      ^\n");
    EXPECT_EQ(run_error(program("v = pypo.input(\"v\", shape=(32,))\nc = pypo.op.matmul(a, v)")),
              "t.pto:5:23: error: matmul: v must be 2-D, got (32,) float16\nc = pypo.op.matmul(a, v)\n"
              "                      ^\n");
}

TEST(Elaborator, InputArgumentChecks) {
    EXPECT_EQ(run_error(program("z = pypo.input(\"z\", shape=(4, 0))")),
              "t.pto:4:31: error: pypo.input: shape[1] must be positive, got 0\n"
              "z = pypo.input(\"z\", shape=(4, 0))\n                              ^\n");
    // 2^31 x 2^30 float32 is 2^63 bytes, one more than 64-bit sizes count;
    // half as many elements still count (and are refused later, by DDR).
    EXPECT_EQ(run_error(program("z = pypo.input(\"z\", shape=(2 ** 31, 2 ** 30))")),
              "t.pto:4:27: error: pypo.input: shape (2147483648, 1073741824) is too large\n"
              "z = pypo.input(\"z\", shape=(2 ** 31, 2 ** 30))\n                          ^\n");
    EXPECT_EQ(
        run_error(program("z = pypo.input(\"z\", shape=(2 ** 30, 2 ** 30))\npypo.output(\"y\", pypo.op.relu(z))")),
        "<no error>");
    EXPECT_EQ(run_error(program("z = pypo.input(\"z\", shape=4)")),
              "t.pto:4:27: error: pypo.input: shape must be a tuple of integers, got int\n"
              "z = pypo.input(\"z\", shape=4)\n                          ^\n");
    EXPECT_EQ(
        run_error(program("z = pypo.input(\"z\", shape=(4,), dtype=\"int4\")")),
        "t.pto:4:39: error: pypo.input: dtype must be 'float16', 'bfloat16', 'float32', 'int8' or 'int32', got 'int4'\n"
        "z = pypo.input(\"z\", shape=(4,), dtype=\"int4\")\n                                      ^\n");
    EXPECT_EQ(run_error(program("z = pypo.input(\"a\", shape=(4,))")),
              "t.pto:4:16: error: pypo.input: a tensor named 'a' already exists (declared at 2:5)\n"
              "z = pypo.input(\"a\", shape=(4,))\n               ^\n");
    EXPECT_EQ(run_error(program("z = pypo.input(\"z\")")),
              "t.pto:4:5: error: pypo.input: missing required argument 'shape'\nz = pypo.input(\"z\")\n    ^\n");
}

TEST(Elaborator, OutputChecks) {
    EXPECT_EQ(run_error(program("pypo.output(\"o\", a)")),
              "t.pto:4:18: error: pypo.output: 'a' is an input; outputs must be computed\n"
              "pypo.output(\"o\", a)\n                 ^\n");
    EXPECT_EQ(run_error(program("c = pypo.op.matmul(a, b)\npypo.output(\"out\", c)")),
              "t.pto:6:13: error: pypo.output: a tensor named 'out' already exists (declared at 4:5)\n"
              "pypo.output(\"out\", pypo.op.matmul(a, b))\n            ^\n");
    EXPECT_EQ(run_error(program("c = pypo.op.matmul(a, b)\npypo.output(\"c\", c)\npypo.output(\"d\", c)")),
              "t.pto:6:18: error: pypo.output: this tensor is already output 'c'\npypo.output(\"d\", c)\n"
              "                 ^\n");
}

TEST(Elaborator, TensorAttributes) {
    EXPECT_EQ(int_result("a.shape[0] + b.shape[1] + len(a.shape) + (a.dtype == 'float16')"), 64 + 16 + 2 + 1);
    EXPECT_EQ(run_error(program("x = a.strides")),
              "t.pto:4:5: error: tensor has no attribute 'strides'\nx = a.strides\n    ^\n");
    EXPECT_EQ(run_error(program("x = a + b")),
              "t.pto:4:7: error: unsupported operand types for +: 'tensor' and 'tensor'\nx = a + b\n      ^\n");
}

TEST(Elaborator, NoOutputs) {
    EXPECT_EQ(run_error("import pypto as pypo\nM = 4\n"),
              "t.pto:1:1: error: program declares no outputs (use pypo.output)\nimport pypto as pypo\n^\n");
    EXPECT_EQ(run_error(""), "t.pto:1:1: error: program declares no outputs (use pypo.output)\n\n^\n");
}

TEST(Frontend, ElaboratesAFile) {
    std::string path = ::testing::TempDir() + "dsl_frontend_gemm.pto";
    {
        std::ofstream out(path);
        out << kGemm;
    }
    dsl::TaskGraph g = dsl::elaborate_file(path);
    EXPECT_EQ(g.tensors.size(), 3u);
    EXPECT_EQ(g.tensors[2].loc.file->path, path);
    std::remove(path.c_str());
}

TEST(Frontend, UnreadableFile) {
    EXPECT_EQ(error_of([] { dsl::elaborate_file("/nonexistent/prog.pto"); }),
              "/nonexistent/prog.pto: error: cannot open file\n");
    EXPECT_EQ(error_of([] { dsl::elaborate_file("/tmp"); }), "/tmp: error: cannot open file\n");
}
