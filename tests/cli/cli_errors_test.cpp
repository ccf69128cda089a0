// What users see when something is wrong: exact messages, exit status 2.
#include <gtest/gtest.h>

#include "cli_util.h"

using namespace clitest;

namespace {

TEST(CliErrors, MisspelledConfigKey) {
    std::string cfg = write_file("typo.json", "{\"cube\": {\"l0_kb\": 64}}\n");
    Outcome o = run("--config '" + cfg + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: " + cfg + ": cube.l0_kb: unknown key (did you mean cube.l0_kib?)\n");
    EXPECT_EQ(o.out, "");
}

TEST(CliErrors, NegativeSizeInConfig) {
    std::string cfg = write_file("neg.json", "{\"cube\": {\"l0_kib\": -3}}\n");
    Outcome o = run("--config '" + cfg + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "davinci-sim: error: " + cfg + ": cube.l0_kib: expected a positive integer, got -3\n");
}

TEST(CliErrors, ProgramErrorHasLocationSourceLineAndCaret) {
    std::string prog = write_file("bad.pto",
                                  "import pypto as pypo\n"
                                  "a = pypo.input(\"a\", shape=(64, 32))\n"
                                  "b = pypo.input(\"b\", shape=(16, 64))\n"
                                  "c = pypo.op.matmul(a, b)\n"
                                  "pypo.output(\"c\", c)\n");
    Outcome o = run("'" + prog + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.rfind(prog + ":4:", 0), 0u) << o.err;
    EXPECT_NE(o.err.find("error: matmul: inner dimensions differ"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("\nc = pypo.op.matmul(a, b)\n"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("^"), std::string::npos) << o.err;
}

TEST(CliErrors, MissingProgramFile) {
    Outcome o = run("models/no_such_model.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err, "models/no_such_model.pto: error: cannot open file\n");
}

TEST(CliErrors, UnknownOption) {
    Outcome o = run("--frobnicate models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.rfind("davinci-sim: error: unrecognised option '--frobnicate'\n", 0), 0u) << o.err;
}

TEST(CliErrors, NoProgram) {
    Outcome o = run("");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.rfind("davinci-sim: error: no program given\n", 0), 0u) << o.err;
}

TEST(CliErrors, UnwritableReportPathFailsBeforeSimulating) {
    Outcome o = run("--report-json /nonexistent-dir/r.json models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err,
              "davinci-sim: error: --report-json: cannot write /nonexistent-dir/r.json: No such file or directory\n");
    EXPECT_EQ(o.out, "");
}

TEST(CliErrors, MatmulThatCannotFitTheHardware) {
    // A 64x64 MAC array: even one 64x64x64 tile needs 48 KiB of L0.
    std::string cfg = write_file("big_array.json", "{\"cube\": {\"mac_rows\": 64, \"mac_cols\": 64}}\n");
    Outcome o = run("--config '" + cfg + "' models/gemm_256.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err,
              "models/gemm_256.pto:8:5: error: matmul does not fit the hardware: the smallest cube tile (64x64x64) "
              "needs 49152 bytes of L0, the cube has 32768\n"
              "c = pypo.op.matmul(a, b)\n"
              "    ^\n");
}

}  // namespace
