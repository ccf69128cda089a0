// The strict JSON reader under the config and program loaders: syntax
// errors by line and column, duplicate keys by their full path.
#include "sim/arch/json_text.h"

#include <string>

#include <gtest/gtest.h>

namespace {

std::string error_of(const std::string& text) {
    try {
        arch::parse_json_text(text, "f.json");
    } catch (const arch::JsonTextError& e) {
        return e.what();
    }
    return "(accepted)";
}

TEST(JsonText, SameKeyInDifferentObjectsIsFine) {
    EXPECT_EQ(error_of(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]})"), "(accepted)");
}

TEST(JsonText, DuplicatePathCountsArrayElements) {
    EXPECT_EQ(error_of(R"({"blocks": [{"n": 1}, [0, {"k": 1}], {"streams": [{"engine": "dma0", "engine": "dma1"}]}]})"),
              "f.json: blocks[2].streams[0].engine: duplicate key (given twice in one object)");
}

TEST(JsonText, DuplicateAtTheTopLevel) {
    EXPECT_EQ(error_of("{\"a\": 1,\n \"a\": 1}"), "f.json: a: duplicate key (given twice in one object)");
}

TEST(JsonText, SyntaxErrorHasLineAndColumn) {
    EXPECT_EQ(error_of("{\"a\": 1,\n \"b\": }"),
              "f.json:2:7: invalid JSON: syntax error while parsing value - unexpected '}'; expected '[', '{', or a "
              "literal");
}

TEST(JsonText, EmptyText) {
    EXPECT_EQ(error_of(""),
              "f.json:1:1: invalid JSON: syntax error while parsing value - unexpected end of input; "
              "expected '[', '{', or a literal");
}

TEST(JsonText, InvalidUtf8InAString) {
    EXPECT_EQ(error_of("{\"a\": \"\xff\"}"),
              "f.json:1:8: invalid JSON: syntax error while parsing value - invalid string: ill-formed UTF-8 byte; "
              "last read: '\"<FF>'");
}

// nlohmann parses iteratively: 100,000 brackets are no stack overflow.
TEST(JsonText, DeepNestingIsNoCrash) {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    EXPECT_EQ(error_of(deep), "(accepted)");
}

TEST(JsonText, MissingFileAndDirectory) {
    EXPECT_THROW(arch::read_json_file("/nonexistent/x.json"), arch::JsonTextError);
    try {
        arch::read_json_file("/tmp");
        FAIL();
    } catch (const arch::JsonTextError& e) {
        EXPECT_STREQ(e.what(), "/tmp: cannot open file");
    }
}

}  // namespace
