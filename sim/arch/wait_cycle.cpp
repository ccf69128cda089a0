#include "sim/arch/wait_cycle.h"

#include <cstdint>
#include <vector>

namespace arch {

namespace {

struct Node {
    size_t stream, command;
};

// Why a command must wait for another: program order on its engine, or the
// flag whose token the other command sets.
struct Edge {
    size_t from;  // the command that must end first
    bool flag;
    FlagId f;
};

// Whether every wait of `cmd` has a token; if so, it takes them.
bool take_waits(const Command& cmd, std::vector<uint32_t>& tokens) {
    size_t taken = 0;
    for (; taken < cmd.waits.size(); ++taken) {
        uint32_t& t = tokens[cmd.waits[taken]];
        if (!t) break;
        --t;
    }
    if (taken == cmd.waits.size()) return true;
    while (taken) ++tokens[cmd.waits[--taken]];  // not yet: give back what it took
    return false;
}

}  // namespace

bool waits_can_be_met(const Block& block) {
    thread_local std::vector<uint32_t> tokens;  // per flag: sets not yet consumed
    thread_local std::vector<size_t> next;      // per stream: its commands [0, next) have run
    tokens.assign(block.num_flags, 0);
    next.assign(block.streams.size(), 0);
    size_t left = 0;
    for (const Stream& st : block.streams) left += st.commands.size();
    // Each pass runs every stream as far as it can; a pass that runs nothing
    // leaves every remaining head waiting on a token no one will set.
    for (bool ran = true; ran && left;) {
        ran = false;
        for (size_t s = 0; s < block.streams.size(); ++s) {
            const std::vector<Command>& commands = block.streams[s].commands;
            size_t& i = next[s];
            for (; i < commands.size() && take_waits(commands[i], tokens); ++i, --left, ran = true)
                for (FlagId f : commands[i].sets) ++tokens[f];
        }
    }
    return left == 0;
}

std::string find_wait_cycle(const Block& block) {
    std::vector<Node> nodes;
    std::vector<size_t> first(block.streams.size());
    for (size_t s = 0; s < block.streams.size(); ++s) {
        first[s] = nodes.size();
        for (size_t i = 0; i < block.streams[s].commands.size(); ++i) nodes.push_back({s, i});
    }
    // The k-th set of each flag, by node, in the setting engine's order
    // (one engine sets a flag, so its stream order is the set order).
    std::vector<std::vector<size_t>> sets(block.num_flags);
    for (size_t n = 0; n < nodes.size(); ++n)
        for (FlagId f : block.streams[nodes[n].stream].commands[nodes[n].command].sets) sets[f].push_back(n);
    std::vector<std::vector<Edge>> in(nodes.size());
    std::vector<size_t> waits_seen(block.num_flags, 0);
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (nodes[n].command > 0) in[n].push_back({n - 1, false, 0});
        for (FlagId f : block.streams[nodes[n].stream].commands[nodes[n].command].waits) {
            const size_t k = waits_seen[f]++;
            if (k < sets[f].size()) in[n].push_back({sets[f][k], true, f});
        }
    }
    // Kahn's algorithm: whatever cannot be ordered lies on or behind a cycle.
    std::vector<size_t> pending(nodes.size());
    std::vector<std::vector<size_t>> out(nodes.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
        pending[n] = in[n].size();
        for (const Edge& e : in[n]) out[e.from].push_back(n);
    }
    std::vector<size_t> ready;
    for (size_t n = 0; n < nodes.size(); ++n)
        if (!pending[n]) ready.push_back(n);
    size_t ordered = 0;
    while (!ready.empty()) {
        const size_t n = ready.back();
        ready.pop_back();
        ++ordered;
        for (size_t m : out[n])
            if (--pending[m] == 0) ready.push_back(m);
    }
    if (ordered == nodes.size()) return "";

    // Every unordered node has an unordered predecessor: walking back from
    // the first one must revisit a node, and the walk from there is a cycle.
    // Start from the lowest-numbered stuck node so the report is stable.
    size_t n = 0;
    while (!pending[n]) ++n;
    std::vector<size_t> seen_at(nodes.size(), SIZE_MAX);
    std::vector<Edge> walk;
    std::vector<size_t> path;
    while (seen_at[n] == SIZE_MAX) {
        seen_at[n] = path.size();
        path.push_back(n);
        for (const Edge& e : in[n])
            if (pending[e.from]) {
                walk.push_back(e);
                n = e.from;
                break;
            }
    }
    auto name = [&](size_t node) {
        return engine_name(block.streams[nodes[node].stream].engine) + " command " +
               std::to_string(nodes[node].command);
    };
    std::string text;
    for (size_t i = seen_at[n]; i < path.size(); ++i) {
        const Edge& e = walk[i];
        text += (i == seen_at[n] ? name(path[i]) : ", which") +
                (e.flag ? " waits on f" + std::to_string(e.f) + " set by " : " follows ") + name(e.from);
    }
    return text;
}

}  // namespace arch
