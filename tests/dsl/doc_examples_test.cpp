// The examples of docs/language.md are programs, and this test runs them:
// every ```python block must be a complete program (its first statement an
// import) that elaborates, except a block whose first line is "# error",
// which must fail with exactly the diagnostic of the ```text block that
// follows it. Blocks are elaborated as "example.pto", as the document says.
// A comment line "# --shape NAME=D0,D1,..." at the start of a block stands
// for the command-line option. One test per block, registered when the
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
#include "tests/dsl/dsl_test_util.h"

namespace {

namespace fs = std::filesystem;

const char* const kDoc = "docs/language.md";

struct DocBlock {
    std::string name;     // test name: the nearest heading and the block's index
    int line = 0;         // of the opening fence, for messages
    std::string program;  // the block's text, as example.pto holds it
    bool expect_error = false;
    bool has_expected = false;  // an error block followed by its ```text block
    std::string expected;       // that block's text
    std::string problem;        // what is malformed about the block, if anything
};

struct Doc {
    std::string text;
    std::vector<DocBlock> blocks;
    std::string problem;  // the file cannot be read, or a fence is never closed
};

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// "3.4 None dimensions and --shape" -> "None_dimensions_and_shape": a test
// name gtest filters and ctest handle, without the section number.
std::string identifier(const std::string& heading) {
    std::string out;
    bool gap = false;
    for (char c : heading) {
        if (std::isalnum(static_cast<unsigned char>(c))) {
            if (gap && !out.empty()) out += '_';
            out += c;
            gap = false;
        } else {
            gap = true;
        }
    }
    size_t start = 0;  // drop a leading section number such as "3_4_"
    while (start < out.size() && (std::isdigit(static_cast<unsigned char>(out[start])) || out[start] == '_')) ++start;
    out = out.substr(start);
    return out.empty() ? "Preamble" : out;
}

Doc read_doc() {
    Doc doc;
    fs::path path = fs::path(DAVINCI_SOURCE_DIR) / kDoc;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        doc.problem = "cannot read " + path.string();
        return doc;
    }
    std::ostringstream s;
    s << in.rdbuf();
    doc.text = s.str();

    std::vector<std::string> lines;
    std::istringstream ls(doc.text);
    for (std::string l; std::getline(ls, l);) lines.push_back(l);

    // The fenced blocks in order: language, first line index, body.
    struct Fence {
        std::string lang;
        size_t open = 0;
        std::vector<std::string> body;
        std::string heading;
    };
    std::vector<Fence> fences;
    std::string heading;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string t = trim(lines[i]);
        if (t.rfind("```", 0) != 0) {
            if (!t.empty() && t[0] == '#') {
                size_t hashes = t.find_first_not_of('#');
                if (hashes != std::string::npos && hashes <= 6 && t[hashes] == ' ') heading = trim(t.substr(hashes));
            }
            continue;
        }
        Fence f;
        f.lang = trim(t.substr(3));
        f.open = i;
        f.heading = heading;
        size_t j = i + 1;
        while (j < lines.size() && trim(lines[j]).rfind("```", 0) != 0) f.body.push_back(lines[j++]);
        if (j == lines.size()) {
            doc.problem = std::string(kDoc) + ":" + std::to_string(i + 1) + ": the code block is never closed";
            return doc;
        }
        fences.push_back(std::move(f));
        i = j;
    }

    for (size_t k = 0; k < fences.size(); ++k) {
        const Fence& f = fences[k];
        if (f.lang != "python") continue;
        DocBlock b;
        b.line = int(f.open) + 1;
        char index[8];
        std::snprintf(index, sizeof index, "%02zu", doc.blocks.size());
        b.name = identifier(f.heading) + "_" + index;
        for (const std::string& l : f.body) b.program += l + "\n";
        b.expect_error = !f.body.empty() && trim(f.body[0]) == "# error";
        // The program proper starts at its first line that is not a comment.
        auto first = std::find_if(f.body.begin(), f.body.end(), [](const std::string& l) {
            std::string t = trim(l);
            return !t.empty() && t[0] != '#';
        });
        if (first == f.body.end() || trim(*first).rfind("import ", 0) != 0)
            b.problem = "the example does not start with an import";
        if (b.expect_error) {
            // Only blank lines may separate the program from its diagnostic.
            const Fence* next = k + 1 < fences.size() ? &fences[k + 1] : nullptr;
            bool adjacent = next != nullptr;
            for (size_t i = f.open + f.body.size() + 2; next && i < next->open; ++i) adjacent &= trim(lines[i]).empty();
            if (adjacent && next->lang == "text") {
                b.has_expected = true;
                for (const std::string& l : next->body) b.expected += l + "\n";
            }
        }
        doc.blocks.push_back(std::move(b));
    }
    return doc;
}

const Doc& doc() {
    static const Doc d = read_doc();
    return d;
}

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
        if (block_.expect_error) {
            ASSERT_TRUE(block_.has_expected)
                << "an '# error' example must be followed by a ```text block with its diagnostic";
            EXPECT_EQ(dsl_test::error_of([&] { dsl::elaborate_source(src, shapes); }), block_.expected)
                << block_.program;
            return;
        }
        try {
            dsl::TaskGraph g = dsl::elaborate_source(src, shapes);
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
            dsl::TaskGraph g = dsl::elaborate_source(example_file(b.program), shapes);
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
