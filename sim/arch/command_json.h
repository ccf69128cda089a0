// One command as JSON (the "commands" of a program file, program_json.h),
// read and written field by field from the table in isa_fields.def.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/arch/json_reader.h"
#include "sim/arch/program.h"

namespace arch {

// {"op": "dma" | "matmul" | "vector", the op's fields, "waits", "sets",
// "tag", "issue_cycles"}, each field as its `write` column says.
nlohmann::json command_json(const Command& c);

// The command at `path`; `tag_count` is the size of the program's "tags".
Command read_command(const Reader& r, const nlohmann::json& v, const std::string& path, size_t tag_count);

}  // namespace arch
