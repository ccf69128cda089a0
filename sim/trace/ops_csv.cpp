#include "sim/trace/ops_csv.h"

#include <cstdio>

#include "sim/trace/bounds.h"
#include "sim/trace/csv_field.h"
#include "sim/trace/energy.h"

namespace trace {

namespace {

std::string number(uint64_t v) { return std::to_string(v); }

// A figure that exists only for an operation that ran.
template <typename Value>
std::function<std::string(const OpsCsvCell&)> when_ran(Value value) {
    return [value](const OpsCsvCell& c) { return c.op.ran() ? value(c) : std::string(); };
}

template <typename Value>
std::function<std::string(const OpsCsvCell&)> count(Value value) {
    return [value](const OpsCsvCell& c) { return number(value(c.op)); };
}

// MACs over what every cube of the chip could do at its peak rate (§7.3,
// the float16 rate, as the report's MAC utilization) during the op's span.
std::string mac_utilization(const OpsCsvCell& c) {
    const double capacity = double(c.config.macs_per_cycle() * c.config.cubes_total()) * double(c.op.cycles());
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", capacity > 0 ? double(c.op.macs) / capacity : 0.0);
    return text;
}

// The fusion group an operation ran in (docs/timing-model.md §10): its
// head's name, for the head too; empty for an operation that ran alone.
std::string fusion_group(const OpsCsvCell& c) {
    if (c.op.fused_into >= 0 && size_t(c.op.fused_into) < c.ops.size())
        return csv_field(c.ops[size_t(c.op.fused_into)].name);
    for (const OpStats& o : c.ops)
        if (o.fused_into == int32_t(c.index)) return csv_field(c.op.name);
    return "";
}

const std::vector<OpsCsvColumn> kColumns = {
    {"op", [](const OpsCsvCell& c) { return csv_field(c.op.name); }},
    {"kind", [](const OpsCsvCell& c) { return csv_field(c.op.kind); }},
    {"task", [](const OpsCsvCell& c) { return csv_field(c.op.task); }},
    {"start", when_ran([](const OpsCsvCell& c) { return number(c.op.start); })},
    {"end", when_ran([](const OpsCsvCell& c) { return number(c.op.end); })},
    {"cycles", when_ran([](const OpsCsvCell& c) { return number(c.op.cycles()); })},
    {"stall_cycles", when_ran([](const OpsCsvCell& c) { return number(c.op.stall_cycles()); })},
    {"commands", count([](const OpStats& o) { return o.commands; })},
    {"cube_cycles", count([](const OpStats& o) { return o.cube_cycles; })},
    {"vector_cycles", count([](const OpStats& o) { return o.vector_cycles; })},
    {"dma_cycles", count([](const OpStats& o) { return o.dma_cycles; })},
    {"macs", count([](const OpStats& o) { return o.macs; })},
    {"mac_utilization", when_ran(mac_utilization)},
    {"compute_bound_cycles",
     [](const OpsCsvCell& c) {
         return number(compute_bound_cycles(c.op.macs, c.op.float32_macs, c.op.int8_macs, c.config));
     }},
    {"ddr_bound_cycles",
     [](const OpsCsvCell& c) {
         return number(ddr_bound_cycles(c.op.memory.ddr.read + c.op.memory.ddr.written, c.config));
     }},
    {"ddr_bytes_read", count([](const OpStats& o) { return o.memory.ddr.read; })},
    {"ddr_bytes_written", count([](const OpStats& o) { return o.memory.ddr.written; })},
    {"l1_bytes_read", count([](const OpStats& o) { return o.memory.l1.read; })},
    {"l1_bytes_written", count([](const OpStats& o) { return o.memory.l1.written; })},
    {"l0_bytes_read", count([](const OpStats& o) { return o.memory.l0.read; })},
    {"l0_bytes_written", count([](const OpStats& o) { return o.memory.l0.written; })},
    {"dma_bytes", count([](const OpStats& o) { return o.dma_bytes; })},
    {"energy_fj", [](const OpsCsvCell& c) { return number(op_femtojoules(c.op, c.config)); }},
    {"fusion_group", fusion_group},
    {"link_wait_cycles", count([](const OpStats& o) { return o.link_wait_cycles; })},
    {"flag_wait_cycles", count([](const OpStats& o) { return o.flag_wait_cycles; })},
    {"issue_cycles", count([](const OpStats& o) { return o.issue_cycles; })},
};

}  // namespace

const std::vector<OpsCsvColumn>& ops_csv_columns() { return kColumns; }

std::string format_ops_csv(const std::vector<OpStats>& ops, const arch::Config& c,
                           const std::vector<OpsCsvColumn>& more) {
    std::vector<const OpsCsvColumn*> columns;
    for (const std::vector<OpsCsvColumn>* group : {&kColumns, &more})
        for (const OpsCsvColumn& col : *group) columns.push_back(&col);
    std::string out;
    for (const OpsCsvColumn* col : columns) out += col->name + ",";
    out += "schema_version\n";
    const std::string row_end = std::to_string(kOpsCsvSchemaVersion) + "\n";
    for (size_t i = 0; i < ops.size(); ++i) {
        const OpsCsvCell cell{ops[i], i, c, ops};
        for (const OpsCsvColumn* col : columns) out += col->cell(cell) + ",";
        out += row_end;
    }
    return out;
}

}  // namespace trace
