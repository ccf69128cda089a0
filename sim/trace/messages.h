// The program's `print` and `pypo.log` messages (docs/language.md §3.11),
// as the run reached them: each with the cycle it executed at, for the
// text report, --report-json and the Chrome trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/trace/op_stats.h"

namespace trace {

struct Message {
    std::string text;
    bool print = false;     // print: a synchronisation point; else pypo.log
    int32_t after_op = -1;  // the program operation before it in program order, -1 if none
    std::string where;      // "models/x.pto:6:1"
};

// A message's cycle: a print executes when every operation before it has
// finished (the drain it is); a pypo.log, asynchronous, when the last
// operation before it that ran commands has. 0 with none before it.
uint64_t message_cycle(const Message& m, const std::vector<OpStats>& ops);

// "messages (print, pypo.log)" and a line per message, in program order:
// "  print at cycle 735: checkpoint|1  (x.pto:6:1)"; empty without messages.
std::string format_messages(const std::vector<Message>& messages, const std::vector<OpStats>& ops);

// [{"text", "kind": "print" | "log", "cycle", "where"}]
nlohmann::json messages_json(const std::vector<Message>& messages, const std::vector<OpStats>& ops);

}  // namespace trace
