// The examples of docs/language.md are programs, and this test runs them:
// every ```python block must be a complete program (its first statement an
// import) that elaborates, except a block whose first line is "# error",
// which must fail with exactly the diagnostic of the ```text block that
// follows it. Blocks are elaborated as "example.pto", as the document says.
// A comment line "# --shape NAME=D0,D1,..." or "# --param NAME=VALUE" at
// the start of a block stands for the command-line option. One test per block, registered when the
// binary starts and named after the nearest heading, so a doc change that
// breaks an example fails here. A second test requires every operation of
// dsl/ir/op_kinds.def to be documented and used by a working example.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "dsl/frontend/frontend.h"
#include "dsl/ir/task_graph.h"
#include "tests/dsl/doc_blocks.h"
#include "tests/dsl/dsl_test_util.h"

namespace {

namespace fs = std::filesystem;

using doc_blocks::doc;
using doc_blocks::DocBlock;
using doc_blocks::kDoc;
using doc_blocks::trim;

// The --shape bindings of "# --shape NAME=..." lines among the block's
// leading comments.
bool shapes_of(const std::string& program, std::map<std::string, std::vector<int64_t>>& shapes, std::string& error) {
    std::istringstream lines(program);
    for (std::string line; std::getline(lines, line);) {
        std::string t = trim(line);
        if (t.empty()) continue;
        if (t[0] != '#') break;
        const std::string prefix = "# --shape ";
        if (t.rfind(prefix, 0) != 0) continue;
        std::string name;
        std::vector<int64_t> dims;
        if (!dsl::parse_shape_option(trim(t.substr(prefix.size())), name, dims, error)) return false;
        shapes[name] = dims;
    }
    return true;
}

// The --param bindings of "# --param NAME=VALUE" lines, likewise.
std::map<std::string, std::string> params_of(const std::string& program) {
    std::map<std::string, std::string> params;
    std::istringstream lines(program);
    for (std::string line; std::getline(lines, line);) {
        std::string t = trim(line);
        if (t.empty()) continue;
        if (t[0] != '#') break;
        const std::string prefix = "# --param ";
        if (t.rfind(prefix, 0) != 0) continue;
        std::string name, value, error;
        if (dsl::parse_param_option(trim(t.substr(prefix.size())), name, value, error)) params[name] = value;
    }
    return params;
}

std::shared_ptr<const dsl::SourceFile> example_file(const std::string& program) {
    return dsl_test::source(program, "example.pto");
}

class DocExample : public testing::Test {
public:
    explicit DocExample(DocBlock block) : block_(std::move(block)) {}

    void TestBody() override {
        SCOPED_TRACE(std::string(kDoc) + ":" + std::to_string(block_.line));
        ASSERT_TRUE(block_.problem.empty()) << block_.problem << "\n" << block_.program;
        std::map<std::string, std::vector<int64_t>> shapes;
        std::string error;
        ASSERT_TRUE(shapes_of(block_.program, shapes, error)) << error;
        auto src = example_file(block_.program);
        const std::map<std::string, std::string> params = params_of(block_.program);
        if (block_.expect_error) {
            ASSERT_TRUE(block_.has_expected)
                << "an '# error' example must be followed by a ```text block with its diagnostic";
            // An error the compiler finds (a capacity, a form not lowered)
            // is past elaboration: tests/cli/doc_examples_sim_test.cpp
            // checks its message, running the binary.
            const std::string got = dsl_test::error_of([&] {
                dsl::TaskGraph g = dsl::elaborate_source(src, shapes, params);
                dsl::check_dag(g);
            });
            if (got != "<no error>") {
                EXPECT_EQ(got, block_.expected) << block_.program;
            }
            return;
        }
        try {
            dsl::TaskGraph g = dsl::elaborate_source(src, shapes, params);
            dsl::check_dag(g);
        } catch (const dsl::CompileError& e) {
            ADD_FAILURE() << "the example does not elaborate:\n" << block_.program << "\n" << e.what();
        }
    }

private:
    DocBlock block_;
};

const bool registered = [] {
    for (const DocBlock& b : doc().blocks)
        testing::RegisterTest("DocExamples", b.name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [b]() -> testing::Test* { return new DocExample(b); });
    return true;
}();

}  // namespace

TEST(DocExamplesFile, IsReadAndHasExamples) {
    EXPECT_TRUE(registered);
    ASSERT_EQ(doc().problem, "");
    size_t errors = size_t(
        std::count_if(doc().blocks.begin(), doc().blocks.end(), [](const DocBlock& b) { return b.expect_error; }));
    EXPECT_GE(doc().blocks.size(), 60u);
    EXPECT_GE(errors, 20u);
    std::set<std::string> names;
    for (const DocBlock& b : doc().blocks) EXPECT_TRUE(names.insert(b.name).second) << "duplicate test name " << b.name;
}

// A new operation cannot be left undocumented: each one is named in the
// reference and recorded by at least one of its working examples.
TEST(DocExamplesFile, EveryOperationIsDocumented) {
    ASSERT_EQ(doc().problem, "");
    std::set<std::string> used;
    for (const DocBlock& b : doc().blocks) {
        if (b.expect_error || !b.problem.empty()) continue;
        std::map<std::string, std::vector<int64_t>> shapes;
        std::string error;
        if (!shapes_of(b.program, shapes, error)) continue;
        try {
            dsl::TaskGraph g = dsl::elaborate_source(example_file(b.program), shapes, params_of(b.program));
            for (const dsl::OpNode& op : g.ops) used.insert(dsl::op_kind_name(op.kind));
        } catch (const dsl::CompileError&) {
            // Reported by the block's own test.
        }
    }
    for (const std::string& op : dsl::op_kind_names()) {
        EXPECT_NE(doc().text.find("`" + op + "`"), std::string::npos)
            << "docs/language.md does not name `" << op << "`";
        EXPECT_TRUE(used.count(op)) << "no working example in docs/language.md uses pypo.op." << op;
    }
}
