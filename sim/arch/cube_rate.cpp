#include "sim/arch/cube_rate.h"

#include <numeric>

#include "sim/arch/ceil_div.h"

namespace arch {

int64_t cube_k_depth(const Config& c, DType t) {
    if (c.systolic()) return 1;
    return std::max<int64_t>(1, 2 * c.cube_k_per_cycle / dtype_bytes(t));
}

int64_t cube_passes(const Config& c, DType t) { return t == DType::Float32 ? c.fp32_passes : 1; }

CubePeak cube_peak(const Config& c, DType t) {
    const uint64_t macs = uint64_t(c.mac_rows * c.mac_cols * cube_k_depth(c, t) * c.cubes_total());
    const uint64_t passes = uint64_t(cube_passes(c, t));
    const uint64_t g = std::gcd(macs, passes);
    return {macs / g, passes / g};
}

uint64_t cube_peak_cycles(const Config& c, const uint64_t (&macs)[kDTypeCount]) {
    // sum_t macs[t] * passes[t] / (R Q k[t] cubes), over a common
    // denominator L R Q cubes with L the lcm of the k[t].
    uint64_t L = 1;
    for (int t = 0; t < kDTypeCount; ++t) L = std::lcm(L, uint64_t(cube_k_depth(c, DType(t))));
    uint64_t num = 0;
    for (int t = 0; t < kDTypeCount; ++t)
        num += macs[t] * uint64_t(cube_passes(c, DType(t))) * (L / uint64_t(cube_k_depth(c, DType(t))));
    const uint64_t den = L * uint64_t(c.mac_rows * c.mac_cols * c.cubes_total());
    return den ? ceil_div(num, den) : 0;
}

}  // namespace arch
