// Every example of docs/language.md simulates: each complete ```python
// block (tests/dsl/doc_blocks.h) is saved as example.pto and run through
// the real binary on the default hardware, one process per simulation, and
// must succeed; an "# error" block must stop with exit status 2 and
// exactly the diagnostic of its ```text block (whether the front end or
// the compiler finds the error). tests/dsl/doc_examples_test.cpp
// elaborates the same blocks in-process.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "tests/cli/cli_util.h"
#include "tests/dsl/doc_blocks.h"

namespace {

// The "# --shape NAME=..." and "# --param NAME=VALUE" lines among the block's leading comments, as
// command-line options.
std::string shape_options(const std::string& program) {
    std::istringstream lines(program);
    std::string options;
    for (std::string line; std::getline(lines, line);) {
        const std::string t = doc_blocks::trim(line);
        if (t.empty()) continue;
        if (t[0] != '#') break;
        const std::string prefix = "# --shape ";
        if (t.rfind(prefix, 0) == 0) options += " --shape '" + doc_blocks::trim(t.substr(prefix.size())) + "'";
        const std::string param = "# --param ";
        if (t.rfind(param, 0) == 0) options += " --param '" + doc_blocks::trim(t.substr(param.size())) + "'";
    }
    return options;
}

class DocExampleSimulates : public testing::Test {
public:
    explicit DocExampleSimulates(doc_blocks::DocBlock block) : block_(std::move(block)) {}

    void TestBody() override {
        SCOPED_TRACE(std::string(doc_blocks::kDoc) + ":" + std::to_string(block_.line));
        ASSERT_TRUE(block_.problem.empty()) << block_.problem;
        // Its own directory, so that messages name "example.pto" as the doc does.
        const std::filesystem::path dir = clitest::scratch() / block_.name;
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "example.pto", std::ios::binary) << block_.program;
        const std::string cmd = "cd '" + dir.string() + "' && '" + DAVINCI_SIM_BINARY + "' example.pto" +
                                shape_options(block_.program) + " >stdout 2>stderr";
        const int raw = std::system(cmd.c_str());
        const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
        const std::string err = clitest::slurp((dir / "stderr").string());
        if (block_.expect_error) {
            ASSERT_TRUE(block_.has_expected) << "an '# error' example needs its ```text diagnostic";
            EXPECT_EQ(status, 2) << block_.program;
            EXPECT_EQ(err, block_.expected) << block_.program;
            return;
        }
        EXPECT_EQ(status, 0) << "the example does not simulate on the default hardware:\n"
                             << block_.program << "\n"
                             << err;
    }

private:
    doc_blocks::DocBlock block_;
};

const bool registered = [] {
    for (const doc_blocks::DocBlock& b : doc_blocks::doc().blocks)
        testing::RegisterTest("DocExamplesSimulate", b.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [b]() -> testing::Test* { return new DocExampleSimulates(b); });
    return true;
}();

}  // namespace

TEST(DocExamplesSimulateFile, HasEveryBlock) {
    EXPECT_TRUE(registered);
    ASSERT_EQ(doc_blocks::doc().problem, "");
    EXPECT_GE(doc_blocks::doc().blocks.size(), 60u);
}
