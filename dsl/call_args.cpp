#include "dsl/call_args.h"

#include <algorithm>

#include "dsl/diagnostics.h"

namespace dsl {

std::vector<std::optional<Arg>> bind_args(const Signature& sig, const CallSite& call) {
    std::vector<std::optional<Arg>> bound(sig.params.size());
    size_t positional = 0;
    for (const Arg& a : call.args) {
        if (!a.keyword.empty()) continue;
        if (positional >= sig.params.size()) {
            size_t given = size_t(std::count_if(call.args.begin(), call.args.end(),
                                                [](const Arg& x) { return x.keyword.empty(); }));
            throw CompileError(a.loc, sig.name + ": takes " + std::to_string(sig.params.size()) +
                                          " positional argument" + (sig.params.size() == 1 ? "" : "s") +
                                          " but " + std::to_string(given) + " were given");
        }
        bound[positional++] = a;
    }
    for (const Arg& a : call.args) {
        if (a.keyword.empty()) continue;
        auto it = std::find(sig.params.begin(), sig.params.end(), a.keyword);
        if (it == sig.params.end()) {
            if (std::find(sig.not_yet.begin(), sig.not_yet.end(), a.keyword) != sig.not_yet.end())
                throw CompileError(a.keyword_loc, sig.name + ": '" + a.keyword + "' is not supported yet");
            throw CompileError(a.keyword_loc, sig.name + ": unexpected keyword argument '" + a.keyword + "'");
        }
        auto& slot = bound[size_t(it - sig.params.begin())];
        if (slot) throw CompileError(a.keyword_loc, sig.name + ": got multiple values for argument '" + a.keyword + "'");
        slot = a;
    }
    for (size_t k = 0; k < sig.required; ++k)
        if (!bound[k]) throw CompileError(call.loc, sig.name + ": missing required argument '" + sig.params[k] + "'");
    return bound;
}

}  // namespace dsl
