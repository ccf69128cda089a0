// The corpus of invalid programs: every tests/dsl/invalid/NAME.pto must
// fail with exactly the diagnostic in NAME.expected. One test per file,
// registered when the binary starts, so a new file needs no code.
//
// Programs are elaborated under their path relative to the repository root
// ("tests/dsl/invalid/NAME.pto"), which is what the expectations quote.
// A first line "# --shape NAME=D0,D1,..." (repeatable) passes --shape
// bindings, as the CLI would.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dsl/frontend/frontend.h"
#include "tests/dsl/dsl_test_util.h"

namespace {

namespace fs = std::filesystem;

const std::string kDir = "tests/dsl/invalid";

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

class InvalidProgram : public testing::Test {
public:
    explicit InvalidProgram(std::string name) : name_(std::move(name)) {}

    void TestBody() override {
        fs::path root = DAVINCI_SOURCE_DIR;
        std::string rel = kDir + "/" + name_ + ".pto";
        auto src = std::make_shared<dsl::SourceFile>();
        src->path = rel;
        src->text = read_text(root / rel);
        std::map<std::string, std::vector<int64_t>> shapes;
        std::istringstream lines(src->text);
        std::string line;
        while (std::getline(lines, line) && line.rfind("# --shape ", 0) == 0) {
            std::string name, error;
            std::vector<int64_t> dims;
            ASSERT_TRUE(dsl::parse_shape_option(line.substr(10), name, dims, error)) << error;
            shapes[name] = dims;
        }
        ASSERT_TRUE(fs::exists(root / kDir / (name_ + ".expected"))) << "missing " << name_ << ".expected";
        std::string expected = read_text(root / kDir / (name_ + ".expected"));
        EXPECT_EQ(dsl_test::error_of([&] { dsl::elaborate_source(src, shapes); }), expected);
    }

private:
    std::string name_;
};

std::vector<std::string> corpus() {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(DAVINCI_SOURCE_DIR) / kDir, ec))
        if (e.path().extension() == ".pto") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

const bool registered = [] {
    for (const std::string& name : corpus())
        testing::RegisterTest("InvalidCorpus", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [name]() -> testing::Test* { return new InvalidProgram(name); });
    return true;
}();

}  // namespace

TEST(InvalidCorpusSize, HasAtLeastFortyPrograms) {
    EXPECT_TRUE(registered);
    EXPECT_GE(corpus().size(), 40u);
}
