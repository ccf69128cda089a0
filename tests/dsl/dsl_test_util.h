// Helpers shared by the front-end tests: in-memory sources and the text of
// the diagnostic a snippet produces.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include <map>
#include <vector>

#include "dsl/frontend/frontend.h"
#include "dsl/ir/op_kind.h"
#include "dsl/ir/task_graph.h"
#include "dsl/support/diagnostics.h"
#include "dsl/support/source_location.h"

namespace dsl_test {

inline std::shared_ptr<const dsl::SourceFile> source(const std::string& text, const std::string& path = "t.pto") {
    auto f = std::make_shared<dsl::SourceFile>();
    f->path = path;
    f->text = text;
    return f;
}

// The full diagnostic `fn` throws, or a marker that makes the comparison fail.
// A location in `f`, for diagnostics built by hand.
inline dsl::SourceLoc at(std::shared_ptr<const dsl::SourceFile> f, int line, int col) {
    dsl::SourceLoc loc;
    loc.file = std::move(f);
    loc.line = line;
    loc.col = col;
    return loc;
}

inline std::string error_of(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const dsl::CompileError& e) {
        return e.what();
    }
    return "<no error>";
}

using Shapes = std::map<std::string, std::vector<int64_t>>;

// Elaborates `text` as "t.pto", with --shape bindings.
inline dsl::TaskGraph elaborate(const std::string& text, const Shapes& shapes = {}) {
    return dsl::elaborate_source(source(text), shapes);
}

inline std::string elaborate_error(const std::string& text, const Shapes& shapes = {}) {
    return error_of([&] { elaborate(text, shapes); });
}

// One line per op: "y = kind(a, b) float16", " *" after a promotion cast
// (dsl/passes/pass_promote.h).
inline std::string op_lines(const dsl::TaskGraph& g) {
    std::string s;
    for (const dsl::OpNode& op : g.ops) {
        const dsl::TensorNode& y = g.tensors[size_t(op.output)];
        s += y.name + " = " + dsl::op_kind_name(op.kind) + "(";
        for (size_t k = 0; k < op.inputs.size(); ++k) s += (k ? ", " : "") + g.tensors[size_t(op.inputs[k])].name;
        s += ") " + std::string(arch::dtype_name(y.dtype)) + (op.promotion ? " *" : "") + "\n";
    }
    return s;
}

}  // namespace dsl_test
