// A text cell of the CSV outputs, as RFC 4180 has it: as it is, or in
// double quotes (a quote doubled) when it holds a comma, a quote or a line
// break, so csv readers and pandas split the row where the writer meant.
#pragma once

#include <string>

namespace trace {

inline std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

}  // namespace trace
