// The oracle against the SystemC model on random programs whose systolic
// MATMULs form fold schedules (docs/timing-model.md §7.2): the random
// programs of random_program.h under each systolic dataflow, then, per cube
// stream, some MATMULs cut to one fold, some continuing the fold of the one
// before (same spatial extent and dtype, their own temporal extent), some
// continuing their operation's schedule. Every command's start and end must
// agree, through the real CLI as in oracle_random_test.cpp.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "sim/arch/cube_cost.h"
#include "sim/arch/program_check.h"
#include "sim/arch/program_json.h"
#include "tests/oracle/model_csv.h"
#include "tests/oracle/oracle.h"
#include "tests/oracle/random_program.h"
#include "tests/oracle/seed_sample.h"

namespace {

using namespace oracle_test;

// m, k or n of a MATMUL by its role in the dataflow's (Sr, Sc, T).
struct Roles {
    uint32_t arch::MatmulArgs::*sr;
    uint32_t arch::MatmulArgs::*sc;
};

Roles roles(arch::Dataflow d) {
    using M = arch::MatmulArgs;
    if (d == arch::Dataflow::OS) return {&M::m, &M::n};
    if (d == arch::Dataflow::WS) return {&M::k, &M::n};
    return {&M::k, &M::m};
}

// Counts what the transformation made, for the coverage test.
struct Made {
    int continued = 0, schedule_continues = 0, ended = 0;
};

void add_fold_schedules(RandomCase& rc, uint64_t seed, Made& made) {
    Rng r(seed ^ 0xF01DF01DF01Dull);
    const Roles ro = roles(rc.config.cube_dataflow);
    const uint32_t R = uint32_t(rc.config.mac_rows), C = uint32_t(rc.config.mac_cols);
    for (arch::Block& b : rc.program.blocks)
        for (arch::Stream& s : b.streams) {
            if (s.engine.kind != arch::EngineKind::Cube) continue;
            arch::MatmulArgs* prev = nullptr;
            for (arch::Command& c : s.commands) {
                arch::MatmulArgs& m = c.mm;
                if (r.chance(50)) m.*ro.sr = std::min(m.*ro.sr, R), m.*ro.sc = std::min(m.*ro.sc, C);
                if (prev && arch::systolic_folds(rc.config, *prev).folds() == 1 && r.chance(60)) {
                    m.*ro.sr = prev->*ro.sr, m.*ro.sc = prev->*ro.sc, m.dtype = prev->dtype;
                    m.fold_continues = true;
                    ++made.continued;
                }
                m.schedule_continues = r.chance(50);
                made.schedule_continues += m.schedule_continues;
                made.ended += !m.schedule_continues;
                prev = &m;
            }
        }
}

std::string compare_one(uint64_t seed, const char* dataflow, Made& made) {
    RandomCase rc = random_case(seed, nlohmann::json{{"cube", {{"dataflow", dataflow}}}});
    add_fold_schedules(rc, seed, made);
    TempDir dir(std::string("oracle_folds_") + dataflow + std::to_string(seed));
    const std::string program = dir.file("program.json", arch::program_to_json(rc.program).dump(1) + "\n");
    const std::string config = dir.file("config.json", rc.config_json.dump(2) + "\n");
    const std::string csv = dir.path("timing.csv");
    auto failed = [&](const std::string& what) {
        dir.keep();
        return std::string(dataflow) + " seed " + std::to_string(seed) + ": " + what +
               "\n  reproduce: davinci-sim --program-json " + program + " --config " + config + " --timing-csv t.csv\n";
    };
    try {
        arch::check_program(rc.program, rc.config);
    } catch (const arch::ProgramError& e) {
        return failed(std::string("the generator made an invalid program: ") + e.what());
    }
    const oracle::Result want = oracle::run(rc.program, rc.config);
    const std::string cmd = std::string("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 '") + DAVINCI_SIM_BINARY +
                            "' --program-json '" + program + "' --config '" + config + "' --timing-csv '" + csv +
                            "' -q 2>'" + dir.path("stderr") + "'";
    const int status = std::system(cmd.c_str());
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return failed("davinci-sim failed: " + read_text(dir.path("stderr")));
    const std::map<CsvKey, CsvRow> got = parse_timing_csv(read_text(csv));
    if (got.size() != want.commands.size()) return failed("the model and the oracle time different commands");
    for (const oracle::Timing& t : want.commands) {
        const auto it = got.find({t.block, arch::engine_name(t.engine), t.index});
        if (it == got.end() || it->second.start != t.start || it->second.end != t.end)
            return failed(
                "block " + std::to_string(t.block) + " " + arch::engine_name(t.engine) + " #" +
                std::to_string(t.index) + ": oracle [" + std::to_string(t.start) + ", " + std::to_string(t.end) + ")" +
                (it == got.end()
                     ? ", not in the model's CSV"
                     : ", model [" + std::to_string(it->second.start) + ", " + std::to_string(it->second.end) + ")"));
    }
    return "";
}

class OracleFolds : public testing::TestWithParam<const char*> {};

// 60 seeds per dataflow (or the sample seed_sample.h takes); on all 60 the
// transformation must also have made each kind of MATMUL often.
TEST_P(OracleFolds, ModelMatchesOracle) {
    Made made;
    for (uint64_t seed = 0; seed < 60; ++seed) {
        if (!sampled(seed)) continue;
        const std::string problem = compare_one(seed, GetParam(), made);
        if (!problem.empty()) ADD_FAILURE() << problem;
    }
    if (stride() > 1) return;
    EXPECT_GT(made.continued, 30);
    EXPECT_GT(made.schedule_continues, 30);
    EXPECT_GT(made.ended, 30);
}

INSTANTIATE_TEST_SUITE_P(Dataflows, OracleFolds, testing::Values("os", "ws", "is"),
                         [](const testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

}  // namespace
