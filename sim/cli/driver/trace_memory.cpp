#include "sim/cli/driver/trace_memory.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <unistd.h>

#include "sim/trace/report.h"

namespace cli {

namespace {

std::string size_text(uint64_t bytes) {
    const bool gib = bytes >= uint64_t(1) << 30;
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %s", double(bytes) / double(uint64_t(1) << (gib ? 30 : 20)),
                  gib ? "GiB" : "MiB");
    return text;
}

// A positive whole number, or 0.
uint64_t number(const std::string& text) {
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::stoull(text);
}

}  // namespace

uint64_t usable_memory_bytes() {
    if (const char* forced = std::getenv("DAVINCI_SIM_MEMORY_BYTES"))
        if (uint64_t n = number(forced)) return n;
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    uint64_t memory = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
    // cgroup v2 ("max" when unlimited), then v1.
    for (const char* limit_file : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
        std::ifstream in(limit_file);
        std::string text;
        if (in >> text)
            if (uint64_t limit = number(text); limit > 0 && (memory == 0 || limit < memory)) memory = limit;
    }
    return memory;
}

std::string trace_memory_refusal(const std::string& options, uint64_t commands, uint64_t memory) {
    const uint64_t need = commands * kTraceBytesPerCommand;
    if (memory == 0 || need <= memory) return "";
    return options + " keeps every command of the run in memory, about 1 KiB each: this program has " +
           trace::grouped(commands) + " commands (about " + size_text(need) + "), more than the " + size_text(memory) +
           " this machine has; show part of the run (--trace-window, --trace-clusters, --trace-ops), or use "
           "--timing-csv, --summary-csv and --profile, which write to disk as the run goes";
}

std::string trace_filter_refusal(const std::string& options, uint64_t max_kept) {
    return options + " kept more than " + trace::grouped(max_kept) + " commands (about " +
           size_text(max_kept * kTraceBytesPerCommand) +
           ", the memory this machine has) through --trace-window, --trace-clusters and --trace-ops: narrow them";
}

}  // namespace cli
