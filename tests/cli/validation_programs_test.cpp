// The programs scripts/validate.py runs as its kernels (tests/validation/,
// docs/validation.md), at small sizes: they compile for the Ascend preset,
// compute what they say (--check against the reference executor), and the
// GEMM writes its float32 result, as the vendor kernel it stands for does.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "tests/support/json_parse.h"

using namespace clitest;

namespace {

nlohmann::json checked_report(const std::string& args, const std::string& name) {
    const std::string json = (scratch() / (name + ".json")).string();
    const Outcome o =
        run("-q --config configs/ascend_910b2.json --functional --check --report-json '" + json + "' " + args);
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    return testjson::parse(slurp(json));
}

// 256^3: the result, 256 x 256 float32 (4 bytes an element), stays in the
// L2 until its flush at the end; --op matmul writes float16, half of it.
TEST(ValidationPrograms, TheGemmWritesItsResultInFloat32) {
    const nlohmann::json r = checked_report(
        "--shape a=256,256 --shape b=256,256 tests/validation/gemm_float32_result.pto", "validation_gemm");
    EXPECT_EQ(r["ddr_bytes_written"], 256u * 256 * 4);
    EXPECT_EQ(r["ddr_bytes_read"], 2u * 256 * 256 * 2);
    const nlohmann::json op = checked_report("--op matmul --shape 256,256,256", "validation_gemm_op");
    EXPECT_EQ(op["ddr_bytes_written"], 256u * 256 * 2);
}

TEST(ValidationPrograms, TheElementwiseAddComputesItsSum) {
    const nlohmann::json r =
        checked_report("--shape x=256,256 --shape y=256,256 tests/validation/elementwise_add.pto", "validation_add");
    EXPECT_EQ(r["ddr_bytes_read"], 2u * 256 * 256 * 2);
    EXPECT_EQ(r["ddr_bytes_written"], 256u * 256 * 2);
}

}  // namespace
