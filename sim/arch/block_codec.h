// A compact binary form of one Block, for spooling a compiled program to
// disk (sim/arch/block_spool.h): integers as LEB128 varints, each command
// with only its opcode's arguments, field by field in the order of
// isa_fields.def (a format private to one run: nothing else reads it).
// decode(encode(b)) equals b field for field, except that a command's
// arguments of the other opcodes come back at their defaults (no engine
// reads them).
#pragma once

#include <cstddef>
#include <string>

#include "sim/arch/program.h"

namespace arch {

// Appends the encoding of `block` to `out`.
void encode_block(const Block& block, std::string& out);

// The block encoded in [data, data + size); throws std::runtime_error if
// the bytes are not one whole encoded block.
Block decode_block(const char* data, size_t size);
// The same into `block`, reusing its storage: a block decoded into memory
// that earlier blocks used allocates nothing and touches no new pages.
void decode_block_into(const char* data, size_t size, Block& block);

}  // namespace arch
