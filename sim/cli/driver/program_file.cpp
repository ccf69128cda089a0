#include "sim/cli/driver/program_file.h"

#include <nlohmann/json.hpp>

#include "sim/arch/json_text.h"
#include "sim/arch/program_json.h"

namespace cli {

namespace {

nlohmann::json read_json(const std::string& path) {
    try {
        return arch::parse_json_text(arch::read_json_file(path), path);
    } catch (const arch::JsonTextError& e) {
        throw arch::ProgramError(e.what());
    }
}

// Removes the key, which arch::program_from_json (strict about keys) does
// not know.
void take_version(nlohmann::json& j, const std::string& path) {
    if (!j.is_object() || !j.contains("schema_version")) return;
    const nlohmann::json& v = j["schema_version"];
    if (v != kProgramJsonSchemaVersion)
        throw arch::ProgramError(path + ": schema_version: this davinci-sim reads version " +
                                 std::to_string(kProgramJsonSchemaVersion) + " of the program format, got " +
                                 v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    j.erase("schema_version");
}

// `text`, a value dumped at indent 1, written where it is nested under
// `pad`: each of its lines after the first starts with pad.
void put_nested(trace::TextOut& out, std::string_view text, std::string_view pad) {
    size_t from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string_view::npos; from = nl + 1)
        out << text.substr(from, nl + 1 - from) << pad;
    out << text.substr(from);
}

}  // namespace

void write_program_file(trace::TextOut& out, const arch::Program& header, arch::BlockSource& blocks) {
    arch::Program empty = header;
    empty.blocks.clear();
    nlohmann::json j = arch::program_to_json(empty);
    j["schema_version"] = kProgramJsonSchemaVersion;
    // An object's keys in order, as dump(1) writes them.
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        out << (first ? "{\n " : ",\n ") << nlohmann::json(it.key()).dump() << ": ";
        first = false;
        if (it.key() != "blocks" || blocks.size() == 0) {
            put_nested(out, it.value().dump(1), " ");
            continue;
        }
        out << "[";
        for (size_t b = 0; b < blocks.size(); ++b) {
            out << (b ? ",\n  " : "\n  ");
            put_nested(out, arch::block_to_json(blocks.acquire(b)).dump(1), "  ");
            blocks.release(b);
        }
        out << "\n ]";
    }
    out << "\n}\n";
}

arch::Program read_program_file(const std::string& path) {
    nlohmann::json j = read_json(path);
    take_version(j, path);
    return arch::program_from_json(j, path);
}

}  // namespace cli
