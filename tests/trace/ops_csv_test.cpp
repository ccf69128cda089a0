// The per-operation CSV (sim/trace/ops_csv.h): its exact text, the empty
// cells of an operation that ran nothing, a mode's columns before
// schema_version, and its documentation naming every column in order.
#include "sim/trace/ops_csv.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace {

const std::string kHeader =
    "op,kind,task,start,end,cycles,stall_cycles,commands,cube_cycles,vector_cycles,dma_cycles,macs,mac_utilization,"
    "compute_bound_cycles,ddr_bound_cycles,ddr_bytes_read,ddr_bytes_written,l1_bytes_read,l1_bytes_written,"
    "l0_bytes_read,l0_bytes_written,dma_bytes,energy_fj,fusion_group,link_wait_cycles,flag_wait_cycles,issue_cycles";

// c ran from 9 to 109 with its commands running 90 of those cycles; 12,800
// MACs (half of them float32) on 16 cubes of 256 MAC/cycle in 100 cycles is
// 0.5 of the chip's peak, and 6,400 + 2 x 6,400 MAC slots take 75 cycles at
// it; 3,233 DDR bytes at 32 B/cycle take 102. Its energy on the
// documents' machine (configs/README.md): 6,400 x 2,000 + 6,400 x 4,600
// fJ of MACs, 3,233 x 243,750 of DDR, 3,233 x 6,566 of L1 and 9,000 x
// 2,500 of L0. Its commands waited 7 cycles for links, 5 for flags and 3
// for loop control. "v, view" ran nothing, in c's fusion group.
std::vector<trace::OpStats> two_ops() {
    trace::OpStats c;
    c.name = "c", c.kind = "matmul", c.task = "";
    c.start = 9, c.end = 109, c.active_cycles = 90, c.commands = 3;
    c.cube_cycles = 80, c.dma_cycles = 50, c.macs = 12800, c.cube_macs = 12800, c.float32_macs = 6400,
    c.dma_bytes = 3233;
    c.memory.ddr = {3200, 33}, c.memory.l1 = {33, 3200}, c.memory.l0 = {9000, 0};
    c.link_wait_cycles = 7, c.flag_wait_cycles = 5, c.issue_cycles = 3;
    trace::OpStats view;
    view.name = "v, view", view.kind = "reshape", view.task = "t", view.fused_into = 0;
    return {c, view};
}

TEST(OpsCsv, OneRowPerOperation) {
    EXPECT_EQ(
        trace::format_ops_csv(two_ops(), arch::default_config()),
        kHeader + ",schema_version\n" +
            "c,matmul,,9,109,100,10,3,80,0,50,12800,0.5000,75,102,3200,33,33,3200,9000,0,3233,874011628,c,7,5,3,1\n"
            "\"v, view\",reshape,t,,,,,0,0,0,0,0,,0,0,0,0,0,0,0,0,0,0,c,0,0,0,1\n");
}

TEST(OpsCsv, AModesColumnsComeBeforeSchemaVersion) {
    const std::vector<trace::OpsCsvColumn> layer = {
        {"layer", [](const trace::OpsCsvCell& c) { return "L" + std::to_string(c.index); }}};
    const std::string csv = trace::format_ops_csv(two_ops(), arch::default_config(), layer);
    EXPECT_EQ(csv.substr(0, csv.find('\n')), kHeader + ",layer,schema_version");
    EXPECT_NE(csv.find(",3233,874011628,c,7,5,3,L0,1\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",0,c,0,0,0,L1,1\n"), std::string::npos) << csv;
}

// traces/README.md's table under "## --ops-csv FILE" lists the columns in
// the file's order.
TEST(OpsCsv, TheDocumentationListsEveryColumnInOrder) {
    std::ifstream in(std::string(DAVINCI_SOURCE_DIR) + "/traces/README.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const size_t at = doc.find("\n## --ops-csv FILE\n");
    ASSERT_NE(at, std::string::npos);
    std::istringstream section(doc.substr(at + 1, doc.find("\n## ", at + 1) - at - 1));
    // Every `name` in a row's first cell ("| `start`, `end` | ...").
    std::string documented, line;
    while (std::getline(section, line)) {
        if (line.rfind("| `", 0) != 0) continue;
        std::istringstream cell(line.substr(2, line.find(" |", 2) - 2));
        std::string piece;
        for (bool inside = false; std::getline(cell, piece, '`'); inside = !inside)
            if (inside) documented += (documented.empty() ? "" : ",") + piece;
    }
    EXPECT_EQ(documented, kHeader + ",schema_version");
    std::string names;
    for (const trace::OpsCsvColumn& c : trace::ops_csv_columns()) names += (names.empty() ? "" : ",") + c.name;
    EXPECT_EQ(names, kHeader);
}

}  // namespace
