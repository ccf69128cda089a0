#include "sim/trace/timing_csv.h"

#include <algorithm>

#include "sim/trace/timed_commands.h"

namespace trace {

namespace {

const std::string kHeader = "block,cluster,engine,index,start,end,op,tag,schema_version\n";
const std::string kRowEnd = "," + std::to_string(kTimingCsvSchemaVersion) + "\n";

void append_row(std::string& out, const arch::Program& p, const CommandRecord& r, const arch::Command* cmd) {
    out += std::to_string(r.block) + "," + std::to_string(r.cluster) + "," + arch::engine_name(r.engine) + "," +
           std::to_string(r.index) + "," + std::to_string(r.start) + "," + std::to_string(r.end) + ",";
    out += cmd ? opcode_name(cmd->op) : "?";
    out += ",";
    if (cmd && cmd->tag < p.tags.size()) out += "\"" + p.tags[cmd->tag].label + "\"";
    out += kRowEnd;
}

}  // namespace

std::string format_timing_csv(const arch::Program& p, std::vector<CommandRecord> records) {
    std::string out = kHeader;
    for (const TimedCommand& t : timed_commands(p, std::move(records))) append_row(out, p, t.rec, t.cmd);
    return out;
}

TimingCsvStream::TimingCsvStream(const arch::Program& program, TextOut& out) : program_(program), out_(out) {
    out_ << kHeader;
}

void TimingCsvStream::on_command(const CommandRecord& r, const arch::Command& c) {
    Row row{arch::engine_order(r.engine), r.index, {}};
    append_row(row.text, program_, r, &c);
    pending_[r.block].rows.push_back(std::move(row));
}

void TimingCsvStream::on_block(uint32_t block, uint32_t, uint64_t, uint64_t) {
    pending_[block].ended = true;
    for (auto it = pending_.find(next_block_); it != pending_.end() && it->second.ended;
         it = pending_.find(++next_block_)) {
        std::vector<Row>& rows = it->second.rows;
        std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
            return a.engine != b.engine ? a.engine < b.engine : a.index < b.index;
        });
        for (const Row& row : rows) out_ << row.text;
        pending_.erase(it);
    }
}

}  // namespace trace
