// Small helpers for lowering passes that emit arch::Program blocks: flag
// allocation, per-engine streams, deduplicated tags.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/arch/program.h"

namespace dsl {

class BlockBuilder {
public:
    explicit BlockBuilder(std::string name) { block_.name = std::move(name); }

    arch::FlagId new_flag() { return block_.num_flags++; }
    std::vector<arch::Command>& stream(arch::EngineId e);
    void depend_on(uint32_t block) { block_.deps.push_back(block); }

    // The finished block: streams in arch::engine_order, empty ones dropped.
    arch::Block finish();

private:
    arch::Block block_;
    std::map<std::pair<int, int64_t>, std::pair<arch::EngineId, std::vector<arch::Command>>> streams_;
};

// Gives the command vectors of a block the compiler is done with (a sink
// has taken it) to the streams of later blocks: a stream then grows in
// memory already allocated and touched, without reallocating.
void recycle(arch::Block&& block);

// Interns command tags (a label and the program operation) into Program::tags.
class TagTable {
public:
    explicit TagTable(arch::Program& p);
    uint32_t operator()(const std::string& label, int32_t op);

private:
    arch::Program& program_;
    std::map<std::pair<std::string, int32_t>, uint32_t> index_;
};

// A 2-D copy: `rows` rows of `row_bytes` bytes, strides in bytes.
arch::DmaArgs copy2d(arch::Space src, uint64_t src_addr, uint64_t src_stride, arch::Space dst, uint64_t dst_addr,
                     uint64_t dst_stride, int64_t rows, int64_t row_bytes);

arch::Command dma_command(const arch::DmaArgs& args, uint32_t tag);
arch::Command matmul_command(const arch::MatmulArgs& args, uint32_t tag);
arch::Command vector_command(const arch::VectorArgs& args, uint32_t tag);

}  // namespace dsl
