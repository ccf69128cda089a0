#include "sim/trace/timing_csv.h"

#include <algorithm>

#include "sim/trace/csv_field.h"
#include "sim/trace/timed_commands.h"

namespace trace {

namespace {

const std::string kHeader = "block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version\n";
const std::string kRowEnd = "," + std::to_string(kTimingCsvSchemaVersion) + "\n";

}  // namespace

TagColumns::TagColumns(const arch::Program& p) {
    for (const arch::CommandTag& tag : p.tags) {
        std::string text = ",\"" + tag.label + "\",";
        if (tag.op >= 0 && size_t(tag.op) < p.ops.size()) {
            const arch::ProgramOp& op = p.ops[size_t(tag.op)];
            text += csv_field(op.name) + "," + csv_field(op.task);
        } else {
            text += ",";
        }
        text_.push_back(std::move(text));
    }
}

const std::string& TagColumns::of(const arch::Command* c) const {
    static const std::string untagged = ",,,";
    return c && c->tag < text_.size() ? text_[c->tag] : untagged;
}

namespace {

void append_row(std::string& out, const TagColumns& tags, const CommandRecord& r, const arch::Command* cmd) {
    out += std::to_string(r.block) + "," + std::to_string(r.cluster) + "," + arch::engine_name(r.engine) + "," +
           std::to_string(r.index) + "," + std::to_string(r.start) + "," + std::to_string(r.end) + ",";
    out += cmd ? opcode_name(cmd->op) : "?";
    out += tags.of(cmd);
    out += "," + std::to_string(r.link_wait) + kRowEnd;
}

}  // namespace

std::string format_timing_csv(const arch::Program& p, std::vector<CommandRecord> records) {
    std::string out = kHeader;
    const TagColumns tags(p);
    for (const TimedCommand& t : timed_commands(p, std::move(records))) append_row(out, tags, t.rec, t.cmd);
    return out;
}

TimingCsvStream::TimingCsvStream(const arch::Program& program, TextOut& out) : tags_(program), out_(out) {
    out_ << kHeader;
}

void TimingCsvStream::on_command(const CommandRecord& r, const arch::Command& c) {
    Row row{arch::engine_order(r.engine), r.index, {}};
    append_row(row.text, tags_, r, &c);
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
