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

}  // namespace

std::string program_file_text(const arch::Program& p) {
    nlohmann::json j = arch::program_to_json(p);
    j["schema_version"] = kProgramJsonSchemaVersion;
    return j.dump(1) + "\n";
}

arch::Program read_program_file(const std::string& path) {
    nlohmann::json j = read_json(path);
    take_version(j, path);
    return arch::program_from_json(j, path);
}

}  // namespace cli
