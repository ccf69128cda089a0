// The timing CSV written as the run goes (TimingCsvStream) is the file
// format_timing_csv writes from every record after the run, byte for byte,
// whatever order blocks end in; it holds a block only while an earlier one
// is still running.
#include "sim/trace/timing_csv.h"

#include <gtest/gtest.h>

#include "tests/support/program_builders.h"

namespace {

using namespace testprog;

trace::CommandRecord record(uint32_t block, uint32_t cluster, arch::EngineId e, uint32_t index, uint64_t start,
                            uint64_t end, uint64_t link_wait = 0) {
    trace::CommandRecord r;
    r.block = block, r.cluster = cluster, r.engine = e, r.index = index, r.start = start, r.end = end;
    r.link_wait = link_wait;
    return r;
}

TEST(TimingCsvStream, SameFileAsAfterTheRunWhateverTheOrderBlocksEnd) {
    arch::Command ld = load(64), mm = matmul(4, 4, 4), ld2 = load(32);
    ld.tag = 1, mm.tag = 2;
    arch::Program p = program({block({stream(dma_engine(0), {ld, ld2}), stream(cube(1), {mm})}),
                               block({stream(cube(0), {mm}), stream(dma_engine(0), {ld})}), block({})});
    p.ops = {{"c", "matmul", "gemm, tiled", {}}};
    p.tags = {{"", -1}, {"load A", 0}, {"mm 4x4", 0}};
    const auto& b0 = p.blocks[0].streams;
    const auto& b1 = p.blocks[1].streams;
    trace::TextOut out;
    trace::TimingCsvStream stream(p, out);
    std::vector<trace::CommandRecord> records;
    auto ran = [&](const trace::CommandRecord& r, const arch::Command& c) {
        records.push_back(r);
        stream.on_command(r, c);
    };
    const std::string header =
        "block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version\n";
    // Simulation order: commands of both blocks interleave, block 1 ends first.
    ran(record(0, 0, dma_engine(0), 0, 0, 10), b0[0].commands[0]);
    ran(record(1, 1, dma_engine(0), 0, 1, 8, 3), b1[1].commands[0]);
    ran(record(1, 1, cube(0), 0, 8, 12), b1[0].commands[0]);
    stream.on_block(1, 1, 1, 12);
    stream.on_block(2, 1, 13, 13);  // no commands
    EXPECT_EQ(out.str(), header);   // held: block 0 is still running
    ran(record(0, 0, cube(1), 0, 10, 14), b0[1].commands[0]);
    ran(record(0, 0, dma_engine(0), 1, 10, 15), b0[0].commands[1]);
    stream.on_block(0, 0, 0, 15);
    EXPECT_EQ(out.str(), header +
                             "0,0,dma0,0,0,10,dma,\"load A\",c,\"gemm, tiled\",0,3\n"
                             "0,0,dma0,1,10,15,dma,\"\",,,0,3\n"
                             "0,0,cube1,0,10,14,matmul,\"mm 4x4\",c,\"gemm, tiled\",0,3\n"
                             "1,1,dma0,0,1,8,dma,\"load A\",c,\"gemm, tiled\",3,3\n"
                             "1,1,cube0,0,8,12,matmul,\"mm 4x4\",c,\"gemm, tiled\",0,3\n");
    EXPECT_EQ(out.str(), trace::format_timing_csv(p, records));
}

}  // namespace
