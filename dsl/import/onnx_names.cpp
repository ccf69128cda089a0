#include "dsl/import/onnx_names.h"

#include <cctype>
#include <cstdio>
#include <set>

#include "dsl/support/utf8.h"

namespace dsl {

std::string identifier_of(const std::string& name) {
    static const std::set<std::string> reserved = {
        "False",    "None",   "True",  "and",  "as",     "assert",   "async",   "await", "break", "class",
        "continue", "def",    "del",   "elif", "else",   "except",   "finally", "for",   "from",  "global",
        "if",       "import", "in",    "is",   "lambda", "nonlocal", "not",     "or",    "pass",  "raise",
        "return",   "try",    "while", "with", "yield",  "pypo",     "pypto"};
    std::string id;
    for (char ch : name) id += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ? ch : '_';
    if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "t_" + id;
    if (reserved.count(id)) id += "_";
    return id;
}

bool string_literal(const std::string& s, std::string& out) {
    out = "\"";
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_sequence_length(s, i);
        if (n == 0) return false;
        const unsigned char ch = static_cast<unsigned char>(s[i]);
        if (ch == '"' || ch == '\\') out += std::string("\\") + char(ch);
        else if (ch < 0x20 || ch == 0x7f) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\x%02x", ch);
            out += esc;
        } else out += s.substr(i, n);
        i += n;
    }
    out += "\"";
    return true;
}

std::string comment_text(const std::string& s) {
    std::string c;
    for (char ch : s) c += static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f ? '?' : ch;
    return c;
}

}  // namespace dsl
