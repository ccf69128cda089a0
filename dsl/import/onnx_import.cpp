#include "dsl/import/onnx_import.h"

#include <climits>
#include <fstream>
#include <sstream>

#include <google/protobuf/io/coded_stream.h>

#include "dsl/import/onnx_translator.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

// Protobuf parses messages of up to 2 GiB; a larger file is not a model
// it can read, whatever its bytes (and is not read into memory).
constexpr size_t kMaxModelBytes = size_t(INT_MAX);

dsl::CompileError not_a_model(const std::string& path) {
    return file_error(path,
                      "not an ONNX model: the bytes do not parse as an ONNX ModelProto (truncated, another "
                      "format, or nested deeper than protobuf's limit of 100)");
}

}  // namespace

bool is_onnx_path(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0; }

ImportedModel import_onnx_bytes(const std::string& path, const std::string& bytes) {
    if (bytes.size() > kMaxModelBytes) throw not_a_model(path);
    onnx::ModelProto model;
    // The default recursion limit (100) bounds nested graphs and
    // attributes; a truncated or foreign file fails here.
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), int(bytes.size()));
    if (!model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) throw not_a_model(path);
    if (!model.has_ir_version()) throw file_error(path, "not an ONNX model: it has no ir_version");
    return OnnxTranslator(path, model).run();
}

ImportedModel import_onnx_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw file_error(path);
    if (size_t(f.tellg()) > kMaxModelBytes) throw not_a_model(path);
    f.seekg(0);
    std::ostringstream bytes;
    bytes << f.rdbuf();
    return import_onnx_bytes(path, bytes.str());
}

}  // namespace dsl
