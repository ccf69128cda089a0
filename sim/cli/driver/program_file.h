// The program file of --emit-program-json and --program-json: the JSON of
// arch::program_to_json (sim/arch/program_json.h) with the version of its
// format. A file without "schema_version" (written by hand, or before the
// key existed) is read as the current version.
#pragma once

#include <string>

#include "sim/arch/program.h"

namespace cli {

// The format of arch::program_to_json; raised when a change of it would
// make an older reader misread a file.
constexpr int kProgramJsonSchemaVersion = 1;

std::string program_file_text(const arch::Program& p);

// Throws arch::ProgramError with the message of arch::load_program_file,
// or "PATH: schema_version: ..." for a version this build does not read.
arch::Program read_program_file(const std::string& path);

}  // namespace cli
