#include "dsl/lower/lower_context.h"

#include <algorithm>

#include "dsl/support/diagnostics.h"

namespace dsl {

uint64_t LowerContext::ddr_scratch(const std::string& name, const std::vector<int64_t>& shape, arch::DType dtype,
                                   const SourceLoc& loc) {
    constexpr uint64_t kAlignment = 4096;  // as the program's tensors (dsl/lower/program/lower.cpp)
    uint64_t end = 0;
    for (const arch::TensorPlacement& t : program.tensors)
        if (t.l1_addr < 0 && t.ub_addr < 0 && t.bytes) end = std::max(end, t.ddr_addr + t.bytes);
    const uint64_t addr = (end + kAlignment - 1) / kAlignment * kAlignment;
    uint64_t bytes = uint64_t(arch::dtype_bytes(dtype));
    for (int64_t d : shape) bytes *= uint64_t(d);
    if (addr + bytes > uint64_t(config.ddr_bytes()))
        throw CompileError(loc, "tensor '" + name + "' does not fit in DDR: the program's tensors need " +
                                    std::to_string(addr + bytes) + " bytes, DDR has " +
                                    std::to_string(config.ddr_bytes()));
    program.tensors.push_back({name, shape, dtype, addr, bytes, "scratch"});
    return addr;
}

void LowerContext::add_block(BlockBuilder& block) {
    arch::Block b = block.finish();
    DdrFootprint footprint = ddr_footprint(b);
    std::vector<uint32_t> wait = deps;
    for (uint32_t d : data_deps) {
        const SpanList& wrote = block_writes_[d];
        if (overlap(wrote, footprint.reads) || overlap(wrote, footprint.writes)) wait.push_back(d);
    }
    // Block d read or wrote a byte this one writes.
    auto used_what_it_writes = [&](uint32_t d) {
        return overlap(block_reads_[d], footprint.writes) || overlap(block_writes_[d], footprint.writes);
    };
    for (uint32_t d : reuse_deps)
        if (used_what_it_writes(d)) wait.push_back(d);
    if (overwrites)
        for (uint32_t d = 0; d < block_writes_.size(); ++d)
            if (used_what_it_writes(d)) wait.push_back(d);
    std::sort(wait.begin(), wait.end());
    wait.erase(std::unique(wait.begin(), wait.end()), wait.end());
    b.deps.insert(b.deps.end(), wait.begin(), wait.end());
    block_reads_.push_back(std::move(footprint.reads));
    block_writes_.push_back(std::move(footprint.writes));
    b.drain = drain;
    if (pinned) b.cluster = placement->place(b, pin);
    else if (block_cluster >= 0) b.cluster = block_cluster;
    else if (strand_clusters > 0) b.cluster = strand_first + int32_t(strand_blocks++ % uint32_t(strand_clusters));
    if (!ub_deps.empty()) {
        for (uint32_t d : ub_deps)
            if (b.cluster == arch::Block::kAnyCluster || block_clusters_[d] == b.cluster) b.deps.push_back(d);
        std::sort(b.deps.begin(), b.deps.end());
        b.deps.erase(std::unique(b.deps.begin(), b.deps.end()), b.deps.end());
    }
    block_clusters_.push_back(b.cluster);
    if (options.block_sink) {
        options.block_sink(program, blocks_emitted_++, b);
        recycle(std::move(b));
        return;
    }
    // The streams grew by push_back, up to twice their size; a program held
    // whole is millions of commands (a 720p super-resolution frame: 3.5 M),
    // so the slack would be a third of the simulator's memory. (A sink
    // encodes the block at once: copying it smaller would be wasted.)
    for (arch::Stream& s : b.streams) s.commands.shrink_to_fit();
    program.blocks.push_back(std::move(b));
    ++blocks_emitted_;
}

}  // namespace dsl
