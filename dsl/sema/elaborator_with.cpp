// `with` blocks: the two context managers of the language.
//   with pypo.precision(mode='mixed'):   operations inside record the mode
//   with pypo.mem.temp_cache() as cache: a CacheScope over the operations inside
// Several items (`with a, b:`) nest left to right, as in Python. The name
// after `as` is bound to None: neither manager has a useful value.
#include "dsl/sema/elaborator.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

// The precision modes, with the short spellings users type mapped to the
// dtype names the rest of the simulator uses.
const std::pair<const char*, const char*> kModes[] = {
    {"mixed", "mixed"}, {"float16", "float16"}, {"fp16", "float16"}, {"float32", "float32"}, {"fp32", "float32"},
};

}  // namespace

Elaborator::Flow Elaborator::exec_with(const ast::With& w, size_t item) {
    if (item == w.items.size()) return exec_block(w.body);
    const ast::WithItem& it = w.items[item];
    const ast::Expr& ctx = *it.context;
    const char* usage = "'with' takes pypo.precision(mode=...) or pypo.mem.temp_cache()";
    if (!ctx.is<ast::Call>()) {
        eval(ctx);
        fail(ctx.loc, usage);
    }
    const auto& call_expr = ctx.as<ast::Call>();
    Value fn = eval(*call_expr.func);
    if (!fn.is(Value::Kind::Function) || (fn.s != "pypo.precision" && fn.s != "pypo.mem.temp_cache"))
        fail(ctx.loc, usage);
    CallSite call = call_site(call_expr, fn.s);
    if (!it.name.empty()) bind(it.name, Value::none());

    if (fn.s == "pypo.precision") {
        auto args = bind_args(Signature("pypo.precision", {"mode"}, 1), call);
        const Arg& mode = *args[0];
        std::string normal;
        for (const auto& [spelling, name] : kModes)
            if (mode.value.is(Value::Kind::Str) && mode.value.s == spelling) normal = name;
        if (normal.empty())
            fail(mode.loc, "pypo.precision: mode must be 'mixed', 'float16' or 'float32', got " + repr(mode.value));
        std::string saved = library_.precision_mode();
        library_.set_precision_mode(normal);
        Flow flow = exec_with(w, item + 1);
        library_.set_precision_mode(saved);
        return flow;
    }

    bind_args(Signature("pypo.mem.temp_cache", {}, 0), call);
    // The scope is listed when it opens, so nested scopes follow their
    // enclosing one; its end is filled in when the block is left.
    CacheScope scope;
    scope.name = it.name.empty() ? "temp_cache_" + std::to_string(graph_.temp_caches.size() + 1) : it.name;
    scope.first_op = int(graph_.ops.size());
    scope.task = library_.current_task();
    scope.loc = ctx.loc;
    size_t index = graph_.temp_caches.size();
    graph_.temp_caches.push_back(scope);
    Flow flow = exec_with(w, item + 1);
    graph_.temp_caches[index].end_op = int(graph_.ops.size());
    return flow;
}

}  // namespace dsl
