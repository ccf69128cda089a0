#include "sim/arch/block_spool.h"

#include <chrono>

#include "sim/arch/block_codec.h"

namespace arch {

void BlockSpool::append(const Block& b) {
    encoded_.clear();
    encode_block(b, encoded_);
    file_.append(encoded_);
    info_.push_back(dispatch_info(b));
    for (const Stream& s : b.streams) commands_ += s.commands.size();
}

Block BlockSpool::load(size_t b) {
    const auto start = std::chrono::steady_clock::now();
    file_.read(b, encoded_);
    Block block = decode_block(encoded_.data(), encoded_.size());
    read_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return block;
}

const Block& BlockSpool::acquire(size_t b) {
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<Block> block;
    if (spare_.empty()) {
        block = std::make_unique<Block>();
    } else {
        block = std::move(spare_.back());
        spare_.pop_back();
    }
    file_.read(b, encoded_);
    decode_block_into(encoded_.data(), encoded_.size(), *block);
    const Block& loaded = *(loaded_[b] = std::move(block));
    read_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return loaded;
}

void BlockSpool::release(size_t b) {
    auto it = loaded_.find(b);
    if (it == loaded_.end()) return;
    spare_.push_back(std::move(it->second));
    loaded_.erase(it);
}

}  // namespace arch
