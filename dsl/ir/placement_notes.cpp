#include "dsl/ir/placement_notes.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace dsl {

OpUnit op_runs_on(const OpNode& op) {
    auto engine = op.attrs.find("engine");
    if (op.kind == OpKind::Transpose && engine != op.attrs.end() && engine->second.as<Engine>() == Engine::Dma)
        return OpUnit::Dma;
    return op_kind_unit_of(op.kind);
}

namespace {

// "residual_block" for the task "residual_block#3".
std::string function_of(const std::string& task) { return task.substr(0, task.find('#')); }

struct Misplaced {
    std::string placement;
    OpUnit unit = OpUnit::Vector;
    std::set<std::string> calls;
    std::vector<std::pair<std::string, int>> kinds;  // in order of first appearance, with counts
};

}  // namespace

std::vector<std::string> placement_notes(const TaskGraph& g) {
    std::vector<std::pair<std::string, Misplaced>> found;  // by (function, placement), first call first
    for (const OpNode& op : g.ops) {
        const std::string placement = effective_placement(g, op.task);
        const OpUnit unit = op_runs_on(op);
        const bool misplaced =
            (placement == "cube" && unit == OpUnit::Vector) || (placement == "vector" && unit == OpUnit::Cube);
        if (!misplaced) continue;
        // The task that named the placement ('any' tasks inherit it).
        int named = op.task;
        while (g.tasks[size_t(named)].placement == "any") named = g.tasks[size_t(named)].parent;
        const std::string fn = function_of(g.tasks[size_t(named)].name);
        auto it = std::find_if(found.begin(), found.end(), [&](const auto& f) {
            return f.first == fn && f.second.placement == placement && f.second.unit == unit;
        });
        if (it == found.end()) {
            found.push_back({fn, Misplaced{placement, unit, {}, {}}});
            it = found.end() - 1;
        }
        Misplaced& m = it->second;
        m.calls.insert(g.tasks[size_t(named)].name);
        const std::string kind = op_kind_name(op.kind);
        auto k = std::find_if(m.kinds.begin(), m.kinds.end(), [&](const auto& e) { return e.first == kind; });
        if (k == m.kinds.end()) m.kinds.push_back({kind, 1});
        else ++k->second;
    }
    std::vector<std::string> notes;
    for (const auto& [fn, m] : found) {
        std::string s = "task " + fn + " (placement '" + m.placement + "'";
        if (m.calls.size() > 1) s += ", " + std::to_string(m.calls.size()) + " calls";
        s += "): ";
        int ops = 0;
        for (size_t k = 0; k < m.kinds.size(); ++k) {
            s += (k ? ", " : "") + m.kinds[k].first;
            if (m.kinds[k].second > 1) s += " x" + std::to_string(m.kinds[k].second);
            ops += m.kinds[k].second;
        }
        const bool vector = m.unit == OpUnit::Vector;
        s += std::string(ops > 1 ? " run on " : " runs on ") + (vector ? "the vector unit: " : "the cubes: ") +
             (vector ? "the cubes cannot" : "the vector unit cannot") + " compute " + (ops > 1 ? "them" : "it");
        notes.push_back(std::move(s));
    }
    return notes;
}

}  // namespace dsl
