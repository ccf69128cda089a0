#include "dsl/support/float_repr.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dsl {

std::string float_repr(double d) {
    if (std::isnan(d)) return "nan";
    if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
    if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
    // The fewest significant digits that round-trip, and the decimal exponent.
    char buf[48];
    int digits = 1;
    for (; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*e", digits - 1, d);
        if (std::strtod(buf, nullptr) == d) break;
    }
    const char* e = std::strchr(buf, 'e');
    int exponent = std::atoi(e + 1);
    if (exponent >= -4 && exponent < 16) {
        std::snprintf(buf, sizeof buf, "%.*f", std::max(digits - 1 - exponent, 1), d);
        std::string s = buf;
        // Trailing zeros beyond the first decimal are not Python's.
        while (s.size() > 2 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
        return s;
    }
    std::string mantissa(static_cast<const char*>(buf), e);
    if (mantissa.find('.') != std::string::npos) {
        while (mantissa.back() == '0') mantissa.pop_back();
        if (mantissa.back() == '.') mantissa.pop_back();
    }
    char exp_text[16];
    std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return mantissa + exp_text;
}

}  // namespace dsl
