#include "sim/trace/flag_tokens.h"

#include <algorithm>

namespace trace {

std::vector<FlagTokens> flag_tokens(const std::vector<TimedCommand>& cmds, const BeforeWindow* before) {
    uint32_t clusters = 0;
    size_t flags = 0;
    for (const TimedCommand& t : cmds) {
        clusters = std::max(clusters, t.rec.cluster + 1);
        if (!t.cmd) continue;
        for (arch::FlagId f : t.cmd->sets) flags = std::max(flags, size_t(f) + 1);
        for (arch::FlagId f : t.cmd->waits) flags = std::max(flags, size_t(f) + 1);
    }
    if (before)
        for (const auto& [block, b] : before->blocks()) {
            clusters = std::max(clusters, b.cluster + 1);
            for (const auto& [f, n] : b.tokens) flags = std::max(flags, size_t(f) + 1);
        }
    // Deltas per (cluster, flag): +1 at a set's end, -1 at a wait's start,
    // and at a block's end minus what the block left. cmds is sorted by
    // block: `left` holds the current block's balance per flag.
    std::vector<std::vector<std::pair<uint64_t, int64_t>>> deltas(size_t(clusters) * flags);
    std::vector<bool> used(deltas.size(), false);
    std::vector<int64_t> left(flags, 0);
    uint32_t cluster = 0;
    uint64_t end = 0;
    auto close_block = [&] {
        for (size_t f = 0; f < flags; ++f)
            if (left[f]) deltas[cluster * flags + f].push_back({end, -left[f]}), left[f] = 0;
    };
    // A block's tokens at the window's start, and its true end.
    auto open_block = [&](uint32_t block) {
        if (!before) return;
        auto it = before->blocks().find(block);
        if (it == before->blocks().end()) return;
        if (it->second.end != UINT64_MAX) end = it->second.end;
        for (const auto& [f, n] : it->second.tokens) {
            if (!n) continue;
            deltas[cluster * flags + f].push_back({before->start(), n});
            used[cluster * flags + f] = true;
            left[f] += n;
        }
    };
    for (size_t i = 0; i < cmds.size(); ++i) {
        const TimedCommand& t = cmds[i];
        if (i == 0 || t.rec.block != cmds[i - 1].rec.block) {
            close_block();
            cluster = t.rec.cluster;
            end = 0;
            open_block(t.rec.block);
        }
        end = std::max(end, t.rec.end);
        if (!t.cmd) continue;
        for (arch::FlagId f : t.cmd->sets) {
            deltas[cluster * flags + f].push_back({t.rec.end, 1});
            used[cluster * flags + f] = true;
            ++left[f];
        }
        for (arch::FlagId f : t.cmd->waits) {
            deltas[cluster * flags + f].push_back({t.rec.start, -1});
            used[cluster * flags + f] = true;
            --left[f];
        }
    }
    close_block();
    // Blocks that hold tokens through the window with no command in it.
    if (before) {
        size_t i = 0;
        for (const auto& [block, b] : before->blocks()) {
            while (i < cmds.size() && cmds[i].rec.block < block) ++i;
            if (i < cmds.size() && cmds[i].rec.block == block) continue;
            cluster = b.cluster;
            end = b.end == UINT64_MAX ? before->start() : b.end;
            open_block(block);
            close_block();
        }
    }
    std::vector<FlagTokens> out;
    for (size_t k = 0; k < deltas.size(); ++k)
        if (used[k])
            out.push_back({uint32_t(k / flags), arch::FlagId(k % flags), steps_from_deltas(std::move(deltas[k]))});
    return out;
}

}  // namespace trace
