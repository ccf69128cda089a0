#include "sim/trace/trace_filter.h"

#include <fnmatch.h>

#include <algorithm>

namespace trace {

namespace {

// A cycle count or cluster number: digits only, at most 19 of them.
bool parse_number(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::stoull(s);
    return true;
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    for (size_t from = 0;;) {
        const size_t at = text.find(sep, from);
        parts.push_back(text.substr(from, at - from));
        if (at == std::string::npos) return parts;
        from = at + 1;
    }
}

}  // namespace

bool TraceFilter::keeps_cluster(uint32_t cluster) const {
    return clusters.empty() || std::binary_search(clusters.begin(), clusters.end(), cluster);
}

bool TraceFilter::keeps_cycles(uint64_t from, uint64_t to) const {
    if (from == to) return from >= start && from < end;
    return from < end && to > start;
}

bool TraceFilter::keeps_op(const arch::Program& p, const arch::Command& c) const {
    if (ops.empty()) return true;
    if (c.tag >= p.tags.size()) return false;
    const int op = p.tags[c.tag].op;
    if (op < 0 || size_t(op) >= p.ops.size()) return false;
    const arch::ProgramOp& o = p.ops[size_t(op)];
    for (const std::string& glob : ops)
        if (fnmatch(glob.c_str(), o.name.c_str(), 0) == 0 ||
            (!o.task.empty() && fnmatch(glob.c_str(), o.task.c_str(), 0) == 0))
            return true;
    return false;
}

StepSeries TraceFilter::clip(const StepSeries& s) const {
    if (!windowed()) return s;
    StepSeries out;
    int64_t at_start = 0;
    for (const Step& step : s) {
        if (step.cycle <= start) at_start = step.value;
        else if (step.cycle < end) {
            if (out.empty() && at_start != 0) out.push_back({start, at_start});
            if (out.empty() || out.back().value != step.value) out.push_back(step);
        }
    }
    if (out.empty() && at_start != 0) out.push_back({start, at_start});
    return out;
}

bool parse_trace_window(const std::string& text, TraceFilter& f, std::string& error) {
    const size_t colon = text.find(':');
    uint64_t start = 0, end = UINT64_MAX;
    const bool ok = colon != std::string::npos && text.find(':', colon + 1) == std::string::npos &&
                    (colon == 0 || parse_number(text.substr(0, colon), start)) &&
                    (colon + 1 == text.size() || parse_number(text.substr(colon + 1), end));
    if (!ok) {
        error = "expected START:END in cycles (either may be left out), got '" + text + "'";
        return false;
    }
    if (end <= start) {
        error = "the window " + text + " is empty: END must be above START";
        return false;
    }
    f.start = start;
    f.end = end;
    return true;
}

bool parse_trace_clusters(const std::string& text, TraceFilter& f, std::string& error) {
    std::vector<uint32_t> clusters;
    for (const std::string& part : split(text, ',')) {
        const size_t dash = part.find('-');
        uint64_t lo = 0, hi = 0;
        const bool ok = dash == std::string::npos
                            ? parse_number(part, lo) && (hi = lo, true)
                            : parse_number(part.substr(0, dash), lo) && parse_number(part.substr(dash + 1), hi);
        if (!ok || hi < lo || hi >= UINT32_MAX) {
            error = "expected cluster numbers and ranges such as 0,2,5-7, got '" + text + "'";
            return false;
        }
        for (uint64_t c = lo; c <= hi; ++c) {
            if (clusters.size() >= (1u << 20)) {
                error = "more than 1048576 clusters in '" + text + "'";
                return false;
            }
            clusters.push_back(uint32_t(c));
        }
    }
    std::sort(clusters.begin(), clusters.end());
    clusters.erase(std::unique(clusters.begin(), clusters.end()), clusters.end());
    f.clusters = std::move(clusters);
    return true;
}

bool parse_trace_ops(const std::string& text, TraceFilter& f, std::string& error) {
    std::vector<std::string> globs = split(text, ',');
    for (const std::string& g : globs)
        if (g.empty()) {
            error = "expected operation names or globs separated by commas, such as 'matmul_*,softmax_1', got '" +
                    text + "'";
            return false;
        }
    f.ops = std::move(globs);
    return true;
}

}  // namespace trace
