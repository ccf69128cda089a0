#include "sim/arch/block_spool.h"

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
    file_.read(b, encoded_);
    return decode_block(encoded_.data(), encoded_.size());
}

const Block& BlockSpool::acquire(size_t b) {
    auto& slot = loaded_[b];
    slot = std::make_unique<Block>(load(b));
    return *slot;
}

}  // namespace arch
