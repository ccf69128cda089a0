// Inputs nobody should write but somebody will: each stops with exit status
// 2 and exactly one clear message, located in the file where there is a
// file, naming the key where there is a key. Never a crash, a hang, a
// stack trace or a screenful.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "cli_util.h"

using namespace clitest;

namespace {

namespace fs = std::filesystem;

const std::string kHeader = "import pypto as pypo\n";

void expect_refused(const std::string& args, const std::string& err) {
    Outcome o = run(args);
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.out, "");
    EXPECT_EQ(o.err, err);
}

TEST(BadInput, EmptyProgram) {
    std::string p = write_file("empty.pto", "");
    expect_refused("'" + p + "'", p + ":1:1: error: program declares no outputs (use pypo.output)\n\n^\n");
}

// The first byte that is not UTF-8 stops the lexer; the quoted line shows
// it as '?' so the message itself is clean text.
TEST(BadInput, BinaryFile) {
    std::string bytes;
    for (int i = 0; i < 256; ++i) bytes += char(i);
    std::string p = write_file("binary.pto", bytes);
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')),
              p + ":1:1: error: invalid character U+0000: a program must be UTF-8 text");
    EXPECT_EQ(o.err.find_first_of(std::string("\0", 1) + "\x80\xff"), std::string::npos);
}

TEST(BadInput, InvalidUtf8) {
    std::string p = write_file("latin1.pto", kHeader + "name = \"caf\xe9\"\n");
    expect_refused("'" + p + "'", p + ":2:12: error: invalid UTF-8 byte 0xE9: a program must be UTF-8 text\n"
                                      "name = \"caf?\"\n"
                                      "           ^\n");
}

TEST(BadInput, Utf8BomIsNotAnError) {
    std::string p = write_file("bom.pto", "\xEF\xBB\xBF" + kHeader + "x = 1 +\n");
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')), p + ":2:8: error: expected an expression, found end of line");
}

// The message quotes 160 characters around the column, not the megabyte.
TEST(BadInput, OneMegabyteLine) {
    std::string list;
    for (int i = 0; i < 350000; ++i) list += "1, ";
    std::string p = write_file("long.pto", kHeader + "x = [" + list + "y]\n");
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    std::istringstream lines(o.err);
    std::string first, shown, caret, rest;
    std::getline(lines, first);
    std::getline(lines, shown);
    std::getline(lines, caret);
    EXPECT_EQ(first, p + ":2:1050006: error: name 'y' is not defined");
    EXPECT_EQ(shown.substr(0, 3), "...");
    EXPECT_EQ(shown.substr(shown.size() - 6), " 1, y]");
    EXPECT_LE(shown.size(), 3u + 160u);
    EXPECT_EQ(caret, std::string(shown.size() - 2, ' ') + "^");
    EXPECT_FALSE(std::getline(lines, rest));
}

// Found by a 900-second fuzz run: the lexer counted a bare "\r" as a line
// break and the quoted line did not, so the column pointed past the line
// it quoted and the diagnostic threw (exit 1). Its lines end in "\n",
// "\r\n" or (five of them) a bare "\r"; "1s" starts at column 1772 of line 15.
TEST(BadInput, BareCarriageReturnsBeforeALongLine) {
    Outcome o = run("--dump-graph tests/fuzz/regressions/frontend/bare_cr_long_line.pto");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.out, "");
    std::istringstream lines(o.err);
    std::string first, shown, caret, rest;
    std::getline(lines, first);
    std::getline(lines, shown);
    std::getline(lines, caret);
    EXPECT_EQ(first, "tests/fuzz/regressions/frontend/bare_cr_long_line.pto:15:1772: error: invalid decimal literal");
    ASSERT_EQ(caret.size(), 84u);
    EXPECT_EQ(caret, std::string(83, ' ') + "^");
    EXPECT_EQ(shown.substr(83), "1s");
    EXPECT_FALSE(std::getline(lines, rest));
}

TEST(BadInput, ThousandDeepParentheses) {
    std::string p =
        write_file("deep.pto", kHeader + "x = " + std::string(1000, '(') + "1" + std::string(1000, ')') + "\n");
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')), p + ":2:205: error: too many nested parentheses");
}

TEST(BadInput, ThousandDeepBlocks) {
    std::string text = kHeader;
    for (int i = 0; i < 1000; ++i) text += std::string(size_t(i), ' ') + "if True:\n";
    text += std::string(1000, ' ') + "x = 1\n";
    std::string p = write_file("deep_blocks.pto", text);
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')), p + ":102:101: error: too many levels of indentation");
}

TEST(BadInput, UnknownOperation) {
    std::string p =
        write_file("unknown_op.pto", kHeader + "a = pypo.input(\"a\", shape=(64, 64))\nb = pypo.op.frob(a)\n");
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.rfind(p + ":3:5: error: pypo.op has no operation 'frob'; valid operations are: matmul, ", 0), 0u)
        << o.err;
}

TEST(BadInput, KeywordOfTheWrongType) {
    std::string p = write_file("tile.pto", kHeader +
                                               "a = pypo.input(\"a\", shape=(64, 64))\n"
                                               "c = pypo.op.matmul(a, a, tile='big')\n"
                                               "pypo.output(\"c\", c)\n");
    expect_refused("'" + p + "'", p + ":3:31: error: matmul: tile must be an integer or a tuple of 2 or 3 integers, "
                                      "got str\n"
                                      "c = pypo.op.matmul(a, a, tile='big')\n"
                                      "                              ^\n");
}

TEST(BadInput, ShapeMismatch) {
    std::string p = write_file("shapes.pto", kHeader +
                                                 "a = pypo.input(\"a\", shape=(64, 32))\n"
                                                 "b = pypo.input(\"b\", shape=(64, 64))\n"
                                                 "pypo.output(\"c\", pypo.op.add(a, b))\n");
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')),
              p + ":4:18: error: add: shapes do not broadcast: a is (64, 32) float16, b is (64, 64) float16");
}

TEST(BadInput, MissingShapeBinding) {
    std::string p = write_file("unbound.pto", kHeader +
                                                  "x = pypo.input(\"x\", shape=(None, 64))\n"
                                                  "pypo.output(\"y\", pypo.op.relu(x))\n");
    Outcome o = run("'" + p + "'");
    EXPECT_EQ(o.status, 2);
    EXPECT_EQ(o.err.substr(0, o.err.find('\n')),
              p + ":2:28: error: pypo.input: dimension 0 of 'x' is None; bind it with --shape x=N,64");
}

TEST(BadInput, MissingFiles) {
    expect_refused("/nonexistent/p.pto", "/nonexistent/p.pto: error: cannot open file\n");
    expect_refused("--config /nonexistent/c.json models/gemm_256.pto",
                   "davinci-sim: error: /nonexistent/c.json: cannot open file\n");
    expect_refused("--program-json /nonexistent/p.json", "davinci-sim: error: /nonexistent/p.json: cannot open file\n");
}

TEST(BadInput, DirectoriesGivenAsFiles) {
    expect_refused("models", "models: error: cannot open file\n");
    expect_refused("--config configs models/gemm_256.pto", "davinci-sim: error: configs: cannot open file\n");
    expect_refused("--program-json models", "davinci-sim: error: models: cannot open file\n");
}

TEST(BadInput, ConfigOfTheWrongShape) {
    std::string c = write_file("wrong_shape.json", "{\"chip\": {\"clusters\": {\"count\": 4}}}\n");
    expect_refused("--config '" + c + "' models/gemm_256.pto",
                   "davinci-sim: error: " + c + ": chip.clusters: expected a positive integer, got {\"count\":4}\n");
}

TEST(BadInput, DuplicateKeysInConfig) {
    std::string c = write_file("dup.json", "{\"cluster\": {\"l1_kib\": 256, \"l1_kib\": 128}}\n");
    expect_refused("--config '" + c + "' models/gemm_256.pto",
                   "davinci-sim: error: " + c + ": cluster.l1_kib: duplicate key (given twice in one object)\n");
}

TEST(BadInput, DuplicateKeysInProgramJson) {
    std::string p = write_file("dup_prog.json", "{\"blocks\": [], \"blocks\": []}\n");
    expect_refused("--program-json '" + p + "'",
                   "davinci-sim: error: " + p + ": blocks: duplicate key (given twice in one object)\n");
}

}  // namespace
