// The non-operation API: pypo.weight, pypo.mem (alloc_l1, temp_cache, the
// buf[:] = t copy), pypo.precision, pypo.log/print, DT_* constants, the
// shape-hinted entry function and --shape bindings.
#include "dsl/frontend/frontend.h"
#include "tests/dsl/dsl_test_util.h"

using dsl_test::error_of;
using dsl_test::source;

namespace {

using dsl_test::elaborate;
using dsl_test::elaborate_error;
using dsl_test::Shapes;

const dsl::TensorNode& tensor(const dsl::TaskGraph& g, const std::string& name) {
    for (const auto& t : g.tensors)
        if (t.name == name) return t;
    static dsl::TensorNode none;
    ADD_FAILURE() << "no tensor " << name;
    return none;
}

}  // namespace

TEST(ElaboratorApi, WeightsDtypeConstantsAndNdim) {
    dsl::TaskGraph g = elaborate(
        "import pypto\n"
        "x = pypto.input('x', shape=(1, 3, 8, 8), dtype=pypto.DT_FP32, layout='NCHW')\n"
        "w = pypto.weight('w', (8, 3, 3, 3), pypto.DT_FP32)\n"
        "k = pypto.input('k', shape=(x.ndim,), dtype=pypto.DT_FP16)\n"
        "pypto.output('y', pypto.op.conv2d(x, w))\n");
    EXPECT_EQ(tensor(g, "x").layout, "NCHW");
    EXPECT_EQ(tensor(g, "x").dtype, arch::DType::Float32);
    EXPECT_EQ(tensor(g, "w").role, dsl::TensorRole::Weight);
    EXPECT_EQ(tensor(g, "k").shape, (std::vector<int64_t>{4}));
    EXPECT_EQ(tensor(g, "k").dtype, arch::DType::Float16);
    EXPECT_EQ(elaborate_error("import pypo\nx = pypo.input('x', shape=(3, 8), layout='NCHW')\n"),
              "t.pto:2:42: error: pypo.input: layout 'NCHW' needs a 4-D tensor, got (3, 8)\n"
              "x = pypo.input('x', shape=(3, 8), layout='NCHW')\n                                         ^\n");
}

TEST(ElaboratorApi, AllocL1AndExplicitCopies) {
    dsl::TaskGraph g = elaborate(
        "import pypo\n"
        "a = pypo.input('a', shape=(256, 256), dtype='float32')\n"
        "buf = pypo.mem.alloc_l1(shape=(256, 256), dtype='float32')\n"
        "@pypo.task(placement='cube')\n"
        "def load(t):\n"
        "    buf[:] = t\n"
        "    return pypo.op.relu(buf)\n"
        "pypo.output('y', load(a))\n"
        "b2 = pypo.mem.alloc_l1(shape=(4,))\n");
    const auto& buf = g.tensors[1];
    EXPECT_EQ(buf.name, "l1_buf_1");
    EXPECT_EQ(buf.role, dsl::TensorRole::Buffer);
    EXPECT_EQ(buf.placement, dsl::Placement::L1);
    EXPECT_EQ(buf.dtype, arch::DType::Float32);
    EXPECT_EQ(g.tensors.back().name, "l1_buf_2");
    ASSERT_EQ(g.moves.size(), 1u);
    EXPECT_EQ(g.moves[0].src, 0);
    EXPECT_EQ(g.moves[0].dst, 1);
    EXPECT_EQ(g.moves[0].task, 0);
    EXPECT_EQ(g.moves[0].loc.line, 6);
    EXPECT_EQ(g.tasks[0].moves, (std::vector<int>{0}));
    EXPECT_EQ(g.ops[0].inputs, (std::vector<int>{1}));
}

TEST(ElaboratorApi, PrecisionScopesNestAndRestore) {
    dsl::TaskGraph g = elaborate(
        "import pypo\n"
        "x = pypo.input('x', shape=(4, 4))\n"
        "a = pypo.op.relu(x)\n"
        "with pypo.precision(mode='mixed'):\n"
        "    b = pypo.op.relu(a)\n"
        "    with pypo.precision(mode='fp32') as p:\n"
        "        c = pypo.op.relu(b)\n"
        "    d = pypo.op.relu(c)\n"
        "e = pypo.op.relu(d)\n"
        "pypo.output('e', e)\n");
    ASSERT_EQ(g.ops.size(), 5u);
    EXPECT_EQ(g.ops[0].precision, "");
    EXPECT_EQ(g.ops[1].precision, "mixed");
    EXPECT_EQ(g.ops[2].precision, "float32");
    EXPECT_EQ(g.ops[3].precision, "mixed");
    EXPECT_EQ(g.ops[4].precision, "");
}

TEST(ElaboratorApi, TempCacheScopesRecordTheirOperations) {
    dsl::TaskGraph g = elaborate(
        "import pypo\n"
        "a = pypo.input('a', shape=(64, 64))\n"
        "x = pypo.op.relu(a)\n"
        "with pypo.mem.temp_cache() as cache:\n"
        "    t = pypo.op.matmul(x, x, target='L0')\n"
        "    with pypo.mem.temp_cache():\n"
        "        u = pypo.op.relu(t)\n"
        "    v = pypo.op.relu(u)\n"
        "pypo.output('y', pypo.op.relu(v))\n");
    ASSERT_EQ(g.temp_caches.size(), 2u);
    EXPECT_EQ(g.temp_caches[0].name, "cache");
    EXPECT_EQ(g.temp_caches[0].first_op, 1);
    EXPECT_EQ(g.temp_caches[0].end_op, 4);
    EXPECT_EQ(g.temp_caches[0].loc.line, 4);
    EXPECT_EQ(g.temp_caches[1].name, "temp_cache_2");
    EXPECT_EQ(g.temp_caches[1].first_op, 2);
    EXPECT_EQ(g.temp_caches[1].end_op, 3);
}

TEST(ElaboratorApi, LogsAndPrintsAreRecordedInProgramOrder) {
    dsl::TaskGraph g = elaborate(
        "import pypo\n"
        "c = pypo.input('c', shape=(256, 256))\n"
        "print('start', 1, 2.5, None, [c, 'x'], sep=', ')\n"
        "d = pypo.op.relu(c)\n"
        "@pypo.task\n"
        "def t(x):\n"
        "    pypo.log('in task', x, x.shape)\n"
        "    return pypo.op.relu(x)\n"
        "pypo.output('o', t(d))\n");
    ASSERT_EQ(g.logs.size(), 2u);
    EXPECT_EQ(g.logs[0].text, "start, 1, 2.5, None, [<tensor c (256, 256) float16>, 'x']");
    EXPECT_TRUE(g.logs[0].synchronous);
    EXPECT_EQ(g.logs[0].after_op, -1);
    EXPECT_EQ(g.logs[0].task, -1);
    EXPECT_EQ(g.logs[1].text, "in task <tensor relu_1 (256, 256) float16> (256, 256)");
    EXPECT_FALSE(g.logs[1].synchronous);
    EXPECT_EQ(g.logs[1].after_op, 0);
    EXPECT_EQ(g.logs[1].task, 0);
    EXPECT_EQ(g.logs[1].loc.line, 7);
}

TEST(ElaboratorApi, ShapeHintedEntryFunction) {
    const char* program =
        "import pypto as pypo\n"
        "@pypo.shape_hint({\n"
        "    'input': (None, 3, 8, 8),  # batch varies\n"
        "    'conv1.weight': (4, 3, 3, 3)\n"
        "})\n"
        "def model(input, scale=2):\n"
        "    w = pypo.weight('conv1.weight')\n"
        "    y = pypo.op.conv2d(input, w)\n"
        "    return y, pypo.op.relu(y)\n";
    dsl::TaskGraph g = elaborate(program, {{"input", {5, 3, 8, 8}}});
    const auto& in = tensor(g, "input");
    EXPECT_EQ(in.role, dsl::TensorRole::Input);
    EXPECT_EQ(in.shape, (std::vector<int64_t>{5, 3, 8, 8}));
    EXPECT_EQ(in.loc.line, 6);
    EXPECT_EQ(tensor(g, "conv1.weight").shape, (std::vector<int64_t>{4, 3, 3, 3}));
    EXPECT_EQ(tensor(g, "output").role, dsl::TensorRole::Output);
    EXPECT_EQ(tensor(g, "output").shape, (std::vector<int64_t>{5, 4, 6, 6}));
    EXPECT_EQ(tensor(g, "output_1").role, dsl::TensorRole::Output);
    EXPECT_EQ(elaborate_error(program),
              "t.pto:3:15: error: pypo.shape_hint: dimension 0 of 'input' is None; bind it with --shape "
              "input=N,3,8,8\n    'input': (None, 3, 8, 8),  # batch varies\n              ^\n");
}

TEST(ElaboratorApi, ExplicitCallOfAHintedFunctionChecksShapes) {
    dsl::TaskGraph g = elaborate(
        "import pypo\n"
        "@pypo.shape_hint({'x': (None, 4)})\n"
        "def f(x):\n"
        "    return pypo.op.relu(x)\n"
        "a = pypo.input('a', shape=(7, 4))\n"
        "pypo.output('o', f(a))\n");
    EXPECT_EQ(g.tensors.size(), 2u);  // no entry inputs: the program called f itself
}

TEST(ElaboratorApi, ShapeBindingsForPlainInputs) {
    const char* program = "import pypo\nx = pypo.input('x', shape=(None, 3))\npypo.output('y', pypo.op.relu(x))\n";
    EXPECT_EQ(elaborate(program, {{"x", {9, 3}}}).tensors[0].shape, (std::vector<int64_t>{9, 3}));
    EXPECT_EQ(elaborate_error(program, {{"x", {9, 3}}, {"z", {1}}}),
              "t.pto: error: --shape z=1: the program has no input or weight named 'z'\n");
    EXPECT_EQ(elaborate_error(program, {{"x", {9, 4}}}),
              "t.pto:2:34: error: pypo.input: --shape x=9,4 disagrees with dimension 1 of 'x', which the program "
              "fixes at 3\nx = pypo.input('x', shape=(None, 3))\n                                 ^\n");
    // Bound dimensions whose bytes overflow 64 bits: refused at the declaration.
    EXPECT_EQ(elaborate_error(program, {{"x", {int64_t{1} << 61, 3}}}),
              "t.pto:2:27: error: pypo.input: shape (2305843009213693952, 3) is too large\n"
              "x = pypo.input('x', shape=(None, 3))\n                          ^\n");
}

TEST(Frontend, ParseShapeOption) {
    std::string name, error;
    std::vector<int64_t> dims;
    EXPECT_TRUE(dsl::parse_shape_option("input=1,3,224,224", name, dims, error));
    EXPECT_EQ(name, "input");
    EXPECT_EQ(dims, (std::vector<int64_t>{1, 3, 224, 224}));
    EXPECT_FALSE(dsl::parse_shape_option("input=1,,2", name, dims, error));
    EXPECT_EQ(error, "expected NAME=D1,D2,... (e.g. x=1,3,224,224), got 'input=1,,2'");
    EXPECT_FALSE(dsl::parse_shape_option("x=0", name, dims, error));
    EXPECT_EQ(error, "dimensions must be positive, got 'x=0'");
}
