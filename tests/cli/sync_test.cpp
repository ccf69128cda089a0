// print(...) is a synchronisation point, pypo.log(...) is not (the user
// documents, section 5.2): a print drains all work before any later work.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

// Two independent 128x128x128 matmuls, each one block of 64 x 64 tiles
// (tile= keeps it so: by cost alone each would spread over all four
// clusters), so without a drain they run side by side on clusters 0 and 1.
std::string program(const std::string& between) {
    return "import pypto as pypo\n"
           "a = pypo.input('a', shape=(128, 128))\n"
           "b = pypo.input('b', shape=(128, 128))\n"
           "c = pypo.op.matmul(a, b, tile=(64, 64))\n" +
           between +
           "\n"
           "d = pypo.op.matmul(b, a, tile=(64, 64))\n"
           "pypo.output('c', c)\n"
           "pypo.output('d', d)\n";
}

nlohmann::json report(const std::string& name, const std::string& between) {
    std::string pto = write_file(name + ".pto", program(between));
    std::string json = (scratch() / (name + ".json")).string();
    Outcome o = run("-q --report-json '" + json + "' '" + pto + "'");
    EXPECT_EQ(o.status, 0) << o.err;
    return testjson::parse(slurp(json));
}

TEST(Sync, PrintDrainsButLogDoesNot) {
    nlohmann::json logged = report("logged", "pypo.log('c is done', c)");
    nlohmann::json printed = report("printed", "print('c is done', c)");
    // With pypo.log both blocks start at cycle 1 (dispatch_cycles = 1), and
    // each operation's first command, the A panel load, 8 cycles of loop
    // control later (cluster.loop_overhead_cycles, §5).
    EXPECT_EQ(logged["ops"][1]["start"].get<uint64_t>(), 1u + 8);
    // With print, d's block starts the cycle after c's block ends.
    uint64_t c_end = printed["ops"][0]["end"].get<uint64_t>();
    EXPECT_EQ(printed["ops"][1]["start"].get<uint64_t>(), c_end + 1 + 8);
    // The drain bubble is the whole of c: the run takes about twice as long.
    EXPECT_GT(printed["total_cycles"].get<uint64_t>(), logged["total_cycles"].get<uint64_t>() + c_end / 2);
}

}  // namespace
