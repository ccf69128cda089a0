#include "sim/trace/messages.h"

#include <algorithm>
#include <cstdio>

#include "sim/trace/report.h"

namespace trace {

uint64_t message_cycle(const Message& m, const std::vector<OpStats>& ops) {
    uint64_t cycle = 0;
    const size_t last = std::min<size_t>(ops.size(), m.after_op < 0 ? 0 : size_t(m.after_op) + 1);
    for (size_t i = last; i-- > 0;) {
        if (!ops[i].ran()) continue;
        if (!m.print) return ops[i].end;
        cycle = std::max(cycle, ops[i].end);
    }
    return cycle;
}

std::string format_messages(const std::vector<Message>& messages, const std::vector<OpStats>& ops) {
    if (messages.empty()) return "";
    std::string o = "\nmessages (print, pypo.log)\n";
    for (const Message& m : messages)
        o += "  " + std::string(m.print ? "print" : "log") + " at cycle " + grouped(message_cycle(m, ops)) + ": " +
             m.text + "  (" + m.where + ")\n";
    return o;
}

nlohmann::json messages_json(const std::vector<Message>& messages, const std::vector<OpStats>& ops) {
    nlohmann::json out = nlohmann::json::array();
    for (const Message& m : messages)
        out.push_back({{"text", m.text},
                       {"kind", m.print ? "print" : "log"},
                       {"cycle", message_cycle(m, ops)},
                       {"where", m.where}});
    return out;
}

}  // namespace trace
