// A compiled program's blocks, spooled to disk as the compiler emits them
// (sim/arch/block_codec.h, about 26 bytes a command) and read back one by
// one as the dispatcher runs them: a 4K super-resolution frame is 42 million
// commands, about 16 GB as Blocks in memory. Only the dispatch information
// stays in memory.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/arch/block_source.h"
#include "sim/arch/spool_file.h"

namespace arch {

class BlockSpool : public BlockSource {
public:
    BlockSpool() = default;  // throws std::runtime_error when no temporary file can be made

    void append(const Block& b);
    // Bytes the encoded blocks take on disk.
    uint64_t bytes() const { return file_.bytes(); }
    // Commands in all the blocks.
    uint64_t commands() const { return commands_; }

    // Block b, decoded afresh (for a caller that keeps it).
    Block load(size_t b);
    // Wall time spent reading blocks back and decoding them, in seconds
    // (--timings counts it in the spool's phase, not the simulation's).
    double read_seconds() const { return read_seconds_; }

    size_t size() const override { return info_.size(); }
    const DispatchInfo& info(size_t b) const override { return info_[b]; }
    const Block& acquire(size_t b) override;
    void release(size_t b) override;

private:
    SpoolFile file_;  // piece b is block b
    std::vector<DispatchInfo> info_;
    uint64_t commands_ = 0;
    std::map<size_t, std::unique_ptr<Block>> loaded_;
    std::vector<std::unique_ptr<Block>> spare_;  // released blocks, decoded into again
    std::string encoded_;                        // scratch
    double read_seconds_ = 0;
};

}  // namespace arch
