#include "dsl/frontend.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "dsl/elaborator.h"
#include "dsl/parser.h"

namespace dsl {

std::shared_ptr<const SourceFile> read_source_file(const std::string& path) {
    std::error_code ec;
    // A directory opens as a stream on Linux and then reads as empty.
    if (std::filesystem::is_directory(path, ec)) throw file_error(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw file_error(path);
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw file_error(path);
    auto file = std::make_shared<SourceFile>();
    file->path = path;
    file->text = text.str();
    return file;
}

TaskGraph elaborate_source(std::shared_ptr<const SourceFile> src) {
    ast::Module module = parse(src);
    return Elaborator().run(module);
}

TaskGraph elaborate_file(const std::string& path) { return elaborate_source(read_source_file(path)); }

}  // namespace dsl
