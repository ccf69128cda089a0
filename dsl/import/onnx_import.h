// ONNX import (`davinci-sim model.onnx`): a model file becomes the text of
// an equivalent .pto program, which then goes through the ordinary front
// end. Translating to program text rather than building a TaskGraph here
// keeps one path from programs to graphs: --emit-pto writes exactly the
// program that is simulated, and every check of the language applies to
// an imported model as to a hand-written one. docs/onnx.md describes the
// mapping.
//
// This library is the only one in the compiler that links libonnx and
// libprotobuf; its interface names neither.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dsl/support/source_location.h"
#include "sim/arch/program.h"

namespace dsl {

// The values of one weight of the program: a model initializer (or a
// Constant node, or parameters folded at import, e.g. a BatchNormalization's
// scale and shift), named as the program's pypo.weight names it.
struct ImportedWeight {
    std::string name;
    std::vector<int64_t> shape;
    arch::DType dtype = arch::DType::Float16;
    std::vector<float> values;  // row-major, shape's element count
};

struct ImportedModel {
    std::shared_ptr<const SourceFile> program;  // the .pto text, path "<import FILE>"
    std::vector<ImportedWeight> weights;        // in declaration order
};

// Every problem is one dsl::CompileError naming only the file:
// "FILE: error: MESSAGE" (exit status 2 at the command line).
ImportedModel import_onnx_file(const std::string& path);
ImportedModel import_onnx_bytes(const std::string& path, const std::string& bytes);

// Whether `path` names an ONNX model (by its extension, ".onnx").
bool is_onnx_path(const std::string& path);

}  // namespace dsl
