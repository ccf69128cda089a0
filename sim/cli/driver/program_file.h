// The program file of --emit-program-json and --program-json: the JSON of
// arch::program_to_json (sim/arch/program_json.h) with the version of its
// format. A file without "schema_version" (written by hand, or before the
// key existed) is read as the current version.
#pragma once

#include <string>

#include "sim/arch/block_source.h"
#include "sim/arch/program.h"
#include "sim/trace/text_out.h"

namespace cli {

// The format of arch::program_to_json; raised when a change of it would
// make an older reader misread a file.
constexpr int kProgramJsonSchemaVersion = 1;

// The file of a program whose blocks come from `blocks` (header's own are
// not written): the text of program_to_json with the version, as
// nlohmann::json::dump(1) writes it, made block by block so that only one
// block is ever in memory as JSON.
void write_program_file(trace::TextOut& out, const arch::Program& header, arch::BlockSource& blocks);

// Throws arch::ProgramError with the message of arch::load_program_file,
// or "PATH: schema_version: ..." for a version this build does not read.
arch::Program read_program_file(const std::string& path);

}  // namespace cli
