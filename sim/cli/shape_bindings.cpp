#include "sim/cli/shape_bindings.h"

#include <cctype>
#include <stdexcept>

namespace cli {

namespace {

[[noreturn]] void bad(const std::string& spec) {
    throw std::invalid_argument("--shape: expected NAME=D0,D1,... with positive integers, got '" + spec + "'");
}

}  // namespace

std::map<std::string, std::vector<int64_t>> parse_shape_bindings(const std::vector<std::string>& specs) {
    std::map<std::string, std::vector<int64_t>> out;
    for (const std::string& spec : specs) {
        auto eq = spec.find('=');
        if (eq == std::string::npos || eq == 0) bad(spec);
        std::string name = spec.substr(0, eq);
        std::vector<int64_t> dims;
        std::string rest = spec.substr(eq + 1) + ",";
        std::string digits;
        for (char c : rest) {
            if (c == ',') {
                if (digits.empty() || digits.size() > 12) bad(spec);
                int64_t d = std::stoll(digits);
                if (d <= 0) bad(spec);
                dims.push_back(d);
                digits.clear();
            } else if (std::isdigit(static_cast<unsigned char>(c))) {
                digits += c;
            } else {
                bad(spec);
            }
        }
        if (out.count(name)) throw std::invalid_argument("--shape: '" + name + "' is given twice");
        out[name] = std::move(dims);
    }
    return out;
}

}  // namespace cli
