#include "dsl/sema/call_args.h"

#include <algorithm>

#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// The keywords a message offers: the options, which is what a user reaching
// for a keyword means; a function without options offers all its parameters.
std::vector<std::string> offered_keywords(const Signature& sig) {
    if (sig.required < sig.params.size())
        return std::vector<std::string>(sig.params.begin() + std::ptrdiff_t(sig.required), sig.params.end());
    return sig.params;
}

std::string unexpected_keyword(const Signature& sig, const std::string& keyword) {
    std::string msg = sig.name + ": unexpected keyword argument '" + keyword + "'";
    std::string near = closest_name(keyword, sig.params);
    if (!near.empty()) msg += " (did you mean '" + near + "'?)";
    std::vector<std::string> offered = offered_keywords(sig);
    if (!offered.empty()) msg += "; valid keywords are: " + join_names(offered);
    return msg;
}

}  // namespace

size_t Signature::index_of(const std::string& param) const {
    auto it = std::find(params.begin(), params.end(), param);
    return it == params.end() ? kAll : size_t(it - params.begin());
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
    size_t limit = std::max<size_t>(1, name.size() / 3);
    std::string best;
    size_t best_distance = limit + 1;
    for (const std::string& c : candidates) {
        size_t d = edit_distance(name, c);
        if (d < best_distance) best = c, best_distance = d;
    }
    return best;
}

std::string join_names(const std::vector<std::string>& names) {
    std::string out;
    for (size_t k = 0; k < names.size(); ++k) out += (k ? ", " : "") + names[k];
    return out;
}

std::vector<std::optional<Arg>> bind_args(const Signature& sig, const CallSite& call) {
    std::vector<std::optional<Arg>> bound(sig.params.size());
    size_t positional = 0;
    for (const Arg& a : call.args) {
        if (!a.keyword.empty()) continue;
        if (positional >= sig.positional) {
            size_t given = size_t(
                std::count_if(call.args.begin(), call.args.end(), [](const Arg& x) { return x.keyword.empty(); }));
            throw CompileError(a.loc, sig.name + ": takes " + std::to_string(sig.positional) + " positional argument" +
                                          (sig.positional == 1 ? "" : "s") + " but " + std::to_string(given) +
                                          " were given");
        }
        bound[positional++] = a;
    }
    for (const Arg& a : call.args) {
        if (a.keyword.empty()) continue;
        size_t k = sig.index_of(a.keyword);
        if (k == Signature::kAll) {
            if (std::find(sig.not_yet.begin(), sig.not_yet.end(), a.keyword) != sig.not_yet.end())
                throw CompileError(a.keyword_loc, sig.name + ": '" + a.keyword + "' is not supported yet");
            throw CompileError(a.keyword_loc, unexpected_keyword(sig, a.keyword));
        }
        auto& slot = bound[k];
        if (slot)
            throw CompileError(a.keyword_loc, sig.name + ": got multiple values for argument '" + a.keyword + "'");
        slot = a;
    }
    for (size_t k = 0; k < sig.required; ++k)
        if (!bound[k]) throw CompileError(call.loc, sig.name + ": missing required argument '" + sig.params[k] + "'");
    return bound;
}

}  // namespace dsl
