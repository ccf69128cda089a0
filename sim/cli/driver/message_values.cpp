#include "sim/cli/driver/message_values.h"

#include <cmath>
#include <cstdio>

namespace cli {

namespace {

std::string number(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", x);
    return text;
}

}  // namespace

std::string value_statistics(const dsl::RefValues& values) {
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    size_t finite = 0, nans = 0, infs = 0;
    for (double x : values) {
        if (std::isnan(x)) {
            ++nans;
            continue;
        }
        if (std::isinf(x)) ++infs;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        if (std::isfinite(x)) sum += x, ++finite;
    }
    std::string out;
    if (nans < values.size()) out = ": min " + number(lo) + ", max " + number(hi);
    if (finite) out += ", mean " + number(sum / double(finite));
    if (nans) out += (out.empty() ? ": nan " : ", nan ") + std::to_string(nans);
    if (infs) out += ", inf " + std::to_string(infs);
    return out;
}

void add_tensor_values(std::vector<trace::Message>& messages,
                       const std::vector<std::vector<dsl::LogNode::Mention>>& mentions, SimulatedValues& values) {
    for (size_t i = 0; i < messages.size() && i < mentions.size(); ++i) {
        std::string& text = messages[i].text;
        // From the last mention back, so the earlier positions stay right.
        for (auto it = mentions[i].rbegin(); it != mentions[i].rend(); ++it) {
            if (it->at >= text.size() || text[it->at] != '>') continue;
            const std::optional<dsl::RefValues>& v = values.simulated(it->tensor);
            text.insert(it->at, v ? value_statistics(*v) : std::string(": values not kept in memory"));
        }
    }
}

}  // namespace cli
