// Where the dispatcher finds a program's blocks. A Program holds them all in
// memory (ProgramBlocks); a huge one is spooled to disk as it is compiled
// (BlockSpool, sim/arch/block_spool.h) and each block is read back only
// while it runs, so memory stays bounded however many commands there are.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/arch/program.h"

namespace arch {

// Blocks [first, last): a dependency list kept as runs, since an operation
// waits for every block of its producers, and those are numbered in a row.
struct BlockRange {
    uint32_t first = 0, last = 0;
};
std::vector<BlockRange> block_ranges(std::vector<uint32_t> blocks);

// What dispatch needs to know of a block before it runs (timing-model §4).
struct DispatchInfo {
    std::vector<BlockRange> deps;
    uint32_t drain = 0;
    int32_t cluster = Block::kAnyCluster;
    Side side = Side::Cube;  // block_side: what a cluster holds it on with vector.separate_cores
};
DispatchInfo dispatch_info(const Block& b);

class BlockSource {
public:
    virtual ~BlockSource() = default;
    virtual size_t size() const = 0;
    virtual const DispatchInfo& info(size_t b) const = 0;
    // Block b, valid until release(b); acquired at most once at a time.
    virtual const Block& acquire(size_t b) = 0;
    virtual void release(size_t b) = 0;
};

// The blocks of a Program in memory (which must outlive it).
class ProgramBlocks : public BlockSource {
public:
    explicit ProgramBlocks(const Program& p) : program_(p) {
        info_.reserve(p.blocks.size());
        for (const Block& b : p.blocks) info_.push_back(dispatch_info(b));
    }
    size_t size() const override { return program_.blocks.size(); }
    const DispatchInfo& info(size_t b) const override { return info_[b]; }
    const Block& acquire(size_t b) override { return program_.blocks[b]; }
    void release(size_t) override {}

private:
    const Program& program_;
    std::vector<DispatchInfo> info_;
};

}  // namespace arch
