// Progress goes to a terminal only: a long run with stderr redirected (a
// pipe, a file, a CI log) writes nothing there.
#include <gtest/gtest.h>

#include "cli_util.h"

using namespace clitest;

TEST(Progress, NeverWrittenWhenStderrIsNotATerminal) {
    // 4096^3: about 275 M simulated cycles, over a second of wall time here.
    std::string pto = write_file("g4096.pto",
                                 "import pypto as pypo\n"
                                 "a = pypo.input('a', shape=(4096, 4096))\n"
                                 "b = pypo.input('b', shape=(4096, 4096))\n"
                                 "pypo.output('c', pypo.op.matmul(a, b))\n");
    Outcome o = run("'" + pto + "'");
    ASSERT_EQ(o.status, 0);
    EXPECT_EQ(o.err, "");
    EXPECT_NE(o.out.find("total cycles"), std::string::npos);
}
