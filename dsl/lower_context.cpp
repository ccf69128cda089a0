#include "dsl/lower_context.h"

namespace dsl {

void LowerContext::add_block(BlockBuilder& block) {
    for (uint32_t d : deps) block.depend_on(d);
    arch::Block b = block.finish();
    b.drain = drain;
    if (pinned) b.cluster = BufferPlan::kHomeCluster;
    program.blocks.push_back(std::move(b));
}

}  // namespace dsl
