#include "dsl/import/onnx_import.h"

#include <fstream>
#include <sstream>

#include <google/protobuf/io/coded_stream.h>

#include "dsl/import/onnx_translator.h"
#include "dsl/support/diagnostics.h"

namespace dsl {

namespace {

// Protobuf allows 2 GiB messages; a model this simulator runs is far
// smaller, and reading a file is bounded before it is parsed.
constexpr size_t kMaxModelBytes = size_t(1) << 30;

}  // namespace

bool is_onnx_path(const std::string& path) {
    return path.size() > 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

ImportedModel import_onnx_bytes(const std::string& path, const std::string& bytes) {
    if (bytes.size() > kMaxModelBytes)
        throw file_error(path, "the model has " + std::to_string(bytes.size()) + " bytes, more than the importer's " +
                                   "limit of " + std::to_string(kMaxModelBytes));
    onnx::ModelProto model;
    // The default recursion limit (100) bounds nested graphs and
    // attributes; a truncated or foreign file fails here.
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), int(bytes.size()));
    if (!model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
        throw file_error(path, "not an ONNX model: the bytes do not parse as an ONNX ModelProto (truncated, or "
                               "another format)");
    if (!model.has_ir_version())
        throw file_error(path, "not an ONNX model: it has no ir_version");
    return OnnxTranslator(path, model).run();
}

ImportedModel import_onnx_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw file_error(path);
    std::ostringstream bytes;
    bytes << f.rdbuf();
    return import_onnx_bytes(path, bytes.str());
}

}  // namespace dsl
