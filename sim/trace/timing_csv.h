// Every command's start and end cycle as CSV: the raw material for external
// analysis and the reference for the oracle tests.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/arch/program.h"
#include "sim/trace/recorder.h"
#include "sim/trace/text_out.h"

namespace trace {

// The version of the file's columns, in a last column "schema_version" of
// every row: a column, not a comment line, so csv and pandas readers take
// the file as they are, and a reader that picks columns by position keeps
// working.
// 2: the command's kind is `command_kind` (it was `op`); `op` and `task`
// are the program operation it belongs to, as the Chrome trace's args.op
// and args.task, the ops CSV's `op` and the reports' ops[].name.
// 3: link_wait, the cycles a DMA command's request waited for its link
// (timing model §9), after task.
constexpr int kTimingCsvSchemaVersion = 3;

// Header: block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version.
// Rows sorted by (block, engine, index) so the file does not depend on event order.
std::string format_timing_csv(const arch::Program& p, std::vector<CommandRecord> records);

// The columns after command_kind, per command tag, made once: the tag's
// label (quoted), its operation and task.
class TagColumns {
public:
    explicit TagColumns(const arch::Program& p);
    const std::string& of(const arch::Command* c) const;  // "" columns for an untagged command

private:
    std::vector<std::string> text_;
};

// The same file, written while the simulation runs: a block's rows go out
// once it and every block numbered below it have ended, so only blocks that
// ended ahead of an earlier one are held, never the whole run. Needs only
// the program's tags, not its blocks (it works with a spooled program).
class TimingCsvStream : public Recorder {
public:
    TimingCsvStream(const arch::Program& program, TextOut& out);
    void on_command(const CommandRecord& r, const arch::Command& c) override;
    void on_block(uint32_t block, uint32_t cluster, uint64_t start, uint64_t end) override;

private:
    struct Row {
        std::pair<int, int64_t> engine;  // arch::engine_order
        uint32_t index;
        std::string text;
    };
    struct Pending {
        std::vector<Row> rows;
        bool ended = false;
    };

    TagColumns tags_;
    TextOut& out_;
    std::map<uint32_t, Pending> pending_;
    uint32_t next_block_ = 0;  // the next block to write
};

}  // namespace trace
