// The examples of docs/language.md as blocks: every ```python block, its
// test name (the nearest heading and its index), whether it is an error
// example ("# error" first) and the ```text diagnostic after it. Read by
// tests/dsl/doc_examples_test.cpp (every block elaborates, or fails with
// its diagnostic) and tests/cli/doc_examples_sim_test.cpp (every block
// simulates on the default hardware, or stops with its diagnostic).
#pragma once

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace doc_blocks {

namespace fs = std::filesystem;

inline const char* const kDoc = "docs/language.md";

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

inline std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// "3.4 None dimensions and --shape" -> "None_dimensions_and_shape": a test
// name gtest filters and ctest handle, without the section number.
inline std::string identifier(const std::string& heading) {
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

inline Doc read_doc() {
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

inline const Doc& doc() {
    static const Doc d = read_doc();
    return d;
}

}  // namespace doc_blocks
