// How a run that threw ends (sim/cli/driver/failure.h): the machine's
// failures exit 4 with their own message; anything else that escapes is
// davinci-sim's fault, exit 1, worded as an internal error to report.
#include <exception>
#include <new>
#include <sstream>
#include <stdexcept>

#include <gtest/gtest.h>

#include "sim/arch/environment_error.h"
#include "sim/cli/driver/exit_status.h"
#include "sim/cli/driver/failure.h"

namespace {

struct Ended {
    int status;
    std::string err;
};

template <class E>
Ended end_with(const E& e) {
    std::ostringstream err;
    const int status = cli::report_failure(std::make_exception_ptr(e), err);
    return {status, err.str()};
}

TEST(Failure, TheMachineFailingIsStatusFourWithItsMessage) {
    const Ended e = end_with(arch::EnvironmentError("out.json: cannot write: No space left on device"));
    EXPECT_EQ(e.status, cli::kExitEnvironment);
    EXPECT_EQ(e.status, 4);
    EXPECT_EQ(e.err, "davinci-sim: error: out.json: cannot write: No space left on device\n");
}

TEST(Failure, OutOfMemoryIsTheMachine) {
    const Ended e = end_with(std::bad_alloc());
    EXPECT_EQ(e.status, 4);
    EXPECT_EQ(e.err,
              "davinci-sim: error: out of memory (the machine's memory or this process's limit is too small for "
              "this run; simulate a smaller instance of the program)\n");
}

TEST(Failure, AnythingElseIsAnInternalErrorToReport) {
    const Ended e = end_with(std::out_of_range("basic_string::substr: __pos (which is 1691) > this->size()"));
    EXPECT_EQ(e.status, cli::kExitFailure);
    EXPECT_EQ(e.status, 1);
    EXPECT_EQ(e.err,
              "davinci-sim: internal error \u2014 please report: basic_string::substr: __pos (which is 1691) > "
              "this->size()\n");
}

TEST(Failure, AnExceptionOfNoStandardTypeIsAnInternalErrorToo) {
    const Ended e = end_with(42);
    EXPECT_EQ(e.status, 1);
    EXPECT_EQ(e.err, "davinci-sim: internal error \u2014 please report: an exception of unknown type\n");
}

}  // namespace
