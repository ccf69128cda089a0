#include "dsl/frontend/frontend.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "dsl/ops/op_rules.h"
#include "dsl/sema/elaborator.h"
#include "dsl/syntax/parser.h"

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

TaskGraph elaborate_source(std::shared_ptr<const SourceFile> src,
                           const std::map<std::string, std::vector<int64_t>>& shapes,
                           const std::map<std::string, std::string>& params) {
    ast::Module module = parse(src);
    return Elaborator(find_op_rule, shapes, params).run(module);
}

TaskGraph elaborate_file(const std::string& path, const std::map<std::string, std::vector<int64_t>>& shapes,
                         const std::map<std::string, std::string>& params) {
    return elaborate_source(read_source_file(path), shapes, params);
}

bool parse_param_option(const std::string& text, std::string& name, std::string& value, std::string& error) {
    const size_t eq = text.find('=');
    name = text.substr(0, eq);
    bool ok = eq != std::string::npos && !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name) ok &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (!ok) {
        error = "expected NAME=VALUE, NAME a pypo.param of the program (e.g. layers=2), got '" + text + "'";
        return false;
    }
    value = text.substr(eq + 1);
    error.clear();
    return true;
}

bool parse_shape_option(const std::string& text, std::string& name, std::vector<int64_t>& dims, std::string& error) {
    dims.clear();
    size_t eq = text.find('=');
    error = "expected NAME=D1,D2,... (e.g. x=1,3,224,224), got '" + text + "'";
    if (eq == std::string::npos || eq == 0) return false;
    name = text.substr(0, eq);
    std::string rest = text.substr(eq + 1);
    size_t start = 0;
    for (;;) {
        size_t comma = rest.find(',', start);
        std::string d = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (d.empty() || d.size() > 12 || d.find_first_not_of("0123456789") != std::string::npos) return false;
        int64_t v = std::stoll(d);
        if (v <= 0) {
            error = "dimensions must be positive, got '" + text + "'";
            return false;
        }
        dims.push_back(v);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    error.clear();
    return true;
}

}  // namespace dsl
