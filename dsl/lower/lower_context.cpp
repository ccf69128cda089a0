#include "dsl/lower/lower_context.h"

namespace dsl {

void LowerContext::add_block(BlockBuilder& block) {
    for (uint32_t d : deps) block.depend_on(d);
    arch::Block b = block.finish();
    b.drain = drain;
    if (pinned) b.cluster = BufferPlan::kHomeCluster;
    if (options.block_sink) {
        options.block_sink(program, blocks_emitted_++, std::move(b));
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
