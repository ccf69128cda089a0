// arch::Program as JSON: the file format of `davinci-sim --program-json` and
// `--emit-program-json`, so that hand-written and generated command programs
// run through the real CLI without a .pto front end.
//
// One object per program: {"source", "max_parallel", "slot_l1_bytes",
// "slot_l0_bytes", "tensors", "tags", "blocks"} (the slot sizes only when
// the memories are partitioned, arch::Program); a block is {"name", "deps", "num_flags", "streams"}; a stream is
// {"engine": "dma0" | "cube1.dma" | "cube1" | "vector0" | "vector0.load" | "vector0.store", "commands"}; a
// command is {"op": "dma" | "matmul" | "vector", ..., "waits", "sets",
// "tag", "issue_cycles"} with the fields of arch::DmaArgs, MatmulArgs or
// VectorArgs as isa_fields.def declares them (docs/isa.md lists them; the
// vector op under "vector_op", e.g. "reduce_sum") and the
// loop-control cycles before it (Command::issue_cycles, 0 to 4294967295,
// default 0). Enumerations are written
// by name ("DDR", "float16"). Every key but "blocks", "engine" and "op" is
// optional and defaults to the struct's default; "src1" is absent for unary
// vector ops. Unknown keys and wrong types are errors.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/arch/program.h"
#include "sim/arch/program_check.h"

namespace arch {

// Writes every operand of every command; omits only empty waits/sets, tag 0,
// issue_cycles 0 and an absent src1, which read back as exactly those
// defaults. So reading
// the result gives back `p`, field for field.
nlohmann::json program_to_json(const Program& p);
// One block as program_to_json writes it under "blocks".
nlohmann::json block_to_json(const Block& b);

// Strict: throws ProgramError "ORIGIN: JSON.PATH: message", e.g.
// "p.json: blocks[0].streams[1].commands[2].rows: expected an integer from 0
// to 4294967295, got -1". Structure only; check_program checks the program
// against the hardware.
Program program_from_json(const nlohmann::json& j, const std::string& origin);

// Parses the text of a program file: ProgramError "ORIGIN:LINE:COL: invalid
// JSON: ..." for text that is not JSON, "ORIGIN: PATH: duplicate key ..."
// for a key given twice in one object.
Program program_from_text(const std::string& text, const std::string& origin);

// Reads and parses a file; ProgramError "PATH: cannot open file" for a
// missing file or a directory.
Program load_program_file(const std::string& path);

}  // namespace arch
