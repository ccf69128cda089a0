// --explain FILE: the compiler's choices per operation (dsl/lower/explain.h),
// README.md's example as written, and the file handled like every other
// output (sim/cli/driver/outputs.cpp).
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

namespace fs = std::filesystem;

// The indented lines after `command` in README.md (blank lines inside the
// block included), without their indentation.
std::string readme_block(const std::string& command) {
    const std::string readme = slurp(std::string(DAVINCI_SOURCE_DIR) + "/README.md");
    const size_t at = readme.find("    " + command + "\n");
    EXPECT_NE(at, std::string::npos) << "README.md no longer has: " << command;
    if (at == std::string::npos) return "";
    std::istringstream after(readme.substr(at + command.size() + 5));
    std::vector<std::string> lines;
    for (std::string line; std::getline(after, line);) lines.push_back(line);
    std::string block;
    for (size_t i = 0; i < lines.size(); ++i) {
        const bool indented = lines[i].rfind("    ", 0) == 0;
        const bool blank_inside = lines[i].empty() && i + 1 < lines.size() && lines[i + 1].rfind("    ", 0) == 0;
        if (!indented && !blank_inside) break;
        if (indented && lines[i].rfind("    $ ", 0) == 0) break;  // the next command
        block += (indented ? lines[i].substr(4) : "") + "\n";
    }
    return block;
}

const char* kCommand = "$ build/davinci-sim -q --explain explain.txt explain.pto && cat explain.txt";

TEST(Explain, TheReadmeExample) {
    const std::string program = readme_block("$ cat explain.pto");
    ASSERT_FALSE(program.empty());
    const std::string expected = readme_block(kCommand);
    const std::string pto = write_file("explain.pto", program);
    const std::string out = (scratch() / "explain.txt").string();
    const Outcome o = run("-q --explain '" + out + "' '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, "");
    EXPECT_EQ(slurp(out), expected) << "README.md's --explain example is stale: paste this in";
}

// The run goes on, and the choices do not change it.
TEST(Explain, SimulatesTheSameProgram) {
    const std::string plain = (scratch() / "plain.json").string(), explained = (scratch() / "explained.json").string();
    const std::string text = (scratch() / "gemm.explain").string();
    ASSERT_EQ(run("-q --report-json '" + plain + "' models/gemm_256.pto").status, 0);
    const Outcome o = run("-q --report-json '" + explained + "' --explain '" + text + "' models/gemm_256.pto");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(testjson::parse(slurp(plain))["total_cycles"], testjson::parse(slurp(explained))["total_cycles"]);
    EXPECT_NE(slurp(text).find("op 0: c = matmul(a, b)\n"), std::string::npos) << slurp(text);
}

// prefetch=True: what the third buffer was estimated to give, and whether
// it was taken; with --functional, the same choices.
TEST(Explain, PrefetchAndFunctional) {
    const std::string pto = write_file("prefetch.pto",
                                       "import pypto as pypo\n"
                                       "a = pypo.input(\"a\", shape=(256, 256), dtype=\"float16\")\n"
                                       "b = pypo.input(\"b\", shape=(256, 256), dtype=\"float16\")\n"
                                       "pypo.output(\"c\", pypo.op.matmul(a, b, prefetch=True))\n");
    const std::string timed = (scratch() / "timed.explain").string(), func = (scratch() / "func.explain").string();
    ASSERT_EQ(run("-q --explain '" + timed + "' '" + pto + "'").status, 0);
    const Outcome o = run("-q --functional --explain '" + func + "' '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(slurp(timed).find("; prefetch=True: a third panel buffer estimated "), std::string::npos) << slurp(timed);
    EXPECT_EQ(slurp(timed), slurp(func));
}

TEST(Explain, DirectoryIsRefusedBeforeSimulating) {
    const fs::path d = scratch() / "explain_dir";
    fs::create_directories(d);
    const Outcome o = run("--explain '" + d.string() + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: --explain: cannot write " + d.string() + ": is a directory\n");
    EXPECT_EQ(o.out, "");
}

TEST(Explain, OverTheProgramIsRefused) {
    const std::string prog =
        write_file("explain_self.pto", slurp(std::string(DAVINCI_SOURCE_DIR) + "/models/gemm_256.pto"));
    const Outcome o = run("--explain '" + prog + "' '" + prog + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: --explain: cannot write " + prog + ": it is an input of this run\n");
}

TEST(Explain, NeedsAPtoProgram) {
    const std::string json = (scratch() / "p.json").string();
    ASSERT_EQ(run("--emit-program-json '" + json + "' models/gemm_256.pto").status, 0);
    const Outcome o = run("--explain x.txt --program-json '" + json + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_NE(o.err.find("--explain needs a .pto program, not --program-json"), std::string::npos) << o.err;
}

}  // namespace

// Placement as compiled: a result kept on chip, its blocks pinned to the
// clusters holding their parts; a tensor a placement note moved to DDR is
// said to be in DDR (the lowering that hit the mismatch is not explained).
TEST(Explain, PlacementAsCompiled) {
    const std::string placed = (scratch() / "placed.txt").string();
    ASSERT_EQ(run("-q --explain '" + placed + "' models/memory_placement.pto").status, 0);
    const std::string p = slurp(placed);
    EXPECT_NE(p.find("op 1: matmul_1 = matmul(l1_buf_1, w1)\n  placement: top level (placement='any'), result in L1, "
                     "blocks pinned to the clusters holding their on-chip parts\n"),
              std::string::npos)
        << p;
    EXPECT_EQ(p.find("op 1:", p.find("op 1:") + 1), std::string::npos) << "explained twice:\n" << p;
    const std::string pto = write_file("explain_fallback.pto",
                                       "import pypto as pypo\n"
                                       "a = pypo.input('a', shape=(64, 64))\n"
                                       "b = pypo.input('b', shape=(1, 64))\n"
                                       "t = pypo.op.matmul(a, a, target='L1')\n"
                                       "pypo.output('y', pypo.op.add(t, b))\n");
    const std::string moved = (scratch() / "moved.txt").string();
    const Outcome o = run("--explain '" + moved + "' '" + pto + "'");
    ASSERT_EQ(o.status, 0) << o.err;
    ASSERT_NE(o.out.find("kept in DDR"), std::string::npos) << o.out;
    const std::string m = slurp(moved);
    EXPECT_NE(
        m.find("op 0: matmul_1 = matmul(a, a)\n  placement: top level (placement='any'), result in DDR, blocks on "
               "any cluster\n"),
        std::string::npos)
        << m;
    EXPECT_EQ(m.find("op 0:", m.find("op 0:") + 1), std::string::npos) << "explained twice:\n" << m;
}

// A strand's matmul (timing model §10, "Strands"): flash attention's first
// query block at S = 1,024 on the 910B2 preset, its 3 clusters of the 24.
TEST(Explain, AStrandsClusters) {
    const std::string out = (scratch() / "strands.txt").string();
    ASSERT_EQ(run("-q --config configs/ascend_910b2.json --param qblock=128 --param block=256 --param tm=128 --param "
                  "tn=128 --param parallel=48 --shape q=1024,128 --shape kt=128,1024 --shape v=1024,128 --explain '" +
                  out + "' models/flash_attention.pto")
                  .status,
              0);
    const std::string e = slurp(out);
    EXPECT_NE(e.find("op 2: matmul_1 = matmul(slice_1, slice_2)\n  placement: top level (placement='any'), result in "
                     "DDR, blocks on their strand's clusters 0 to 2, in turn\n"),
              std::string::npos)
        << e.substr(0, 2000);
}

// A result in its strand's DDR workspace (timing model §10, "Workspace"):
// one query block against 2,048 keys, 8 steps; the sixth step's scores
// take the bytes of the first's.
TEST(Explain, AResultInItsStrandsWorkspace) {
    const std::string out = (scratch() / "workspace.txt").string();
    ASSERT_EQ(run("-q --config configs/ascend_910b2.json --param qblock=128 --param block=256 --param tm=128 --param "
                  "tn=128 --param parallel=48 --shape q=128,128 --shape kt=128,2048 --shape v=2048,128 --explain '" +
                  out + "' models/flash_attention.pto")
                  .status,
              0);
    const std::string e = slurp(out);
    EXPECT_NE(e.find("op 69: matmul_11 = matmul(q, slice_11)\n  placement: top level (placement='any'), result in DDR "
                     "(in its strand's workspace: the bytes of matmul_1), blocks on any cluster\n"),
              std::string::npos)
        << e.substr(0, 2000);
}
