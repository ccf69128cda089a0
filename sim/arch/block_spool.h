// A compiled program's blocks, spooled to an anonymous temporary file as
// the compiler emits them (sim/arch/block_codec.h) and read back one by one
// as the dispatcher runs them: a 4K super-resolution frame is 39 million
// commands, about 12 GB as Blocks in memory, and about 1 GB here on disk.
// Only the dispatch information stays in memory. The file lives in $TMPDIR
// (else /tmp) and is unlinked at once, so nothing is left behind.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/arch/block_source.h"

namespace arch {

class BlockSpool : public BlockSource {
public:
    BlockSpool();  // throws std::runtime_error when no temporary file can be made
    ~BlockSpool() override;
    BlockSpool(const BlockSpool&) = delete;
    BlockSpool& operator=(const BlockSpool&) = delete;

    void append(const Block& b);
    // Bytes the encoded blocks take on disk.
    uint64_t bytes() const { return offset_.back(); }

    size_t size() const override { return info_.size(); }
    const DispatchInfo& info(size_t b) const override { return info_[b]; }
    const Block& acquire(size_t b) override;
    void release(size_t b) override { loaded_.erase(b); }

private:
    void flush();

    int fd_ = -1;
    std::string dir_;         // where the (already unlinked) file is, for messages
    std::string pending_;     // encoded, not yet written
    std::vector<uint64_t> offset_{0};  // block b is [offset_[b], offset_[b + 1])
    std::vector<DispatchInfo> info_;
    std::map<size_t, std::unique_ptr<Block>> loaded_;
    std::string read_buffer_;
};

}  // namespace arch
