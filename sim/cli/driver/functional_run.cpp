#include "sim/cli/driver/functional_run.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "sim/arch/bfloat16.h"
#include "sim/arch/half.h"
#include "sim/func/fault_injection.h"
#include "sim/func/numerics.h"

namespace cli {

namespace {

std::string shape_text(const std::vector<int64_t>& s) {
    std::string t = "(";
    for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + (s.size() == 1 ? ",)" : ")");
}

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t fnv1a(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

// The number of products each output of a GEMM weight's consumer sums
// (conv2d: C * kh * kw, matmul: K), 0 when it feeds no GEMM as weights.
int64_t gemm_fan_in(const dsl::TaskGraph& g, int tensor) {
    for (const dsl::OpNode& op : g.ops) {
        if (op.inputs.size() < 2 || op.inputs[1] != tensor) continue;
        const std::vector<int64_t>& s = g.tensors[size_t(tensor)].shape;
        if (op.kind == dsl::OpKind::Conv2d && s.size() == 4) return s[1] * s[2] * s[3];
        if (op.kind == dsl::OpKind::Matmul && s.size() >= 2) return s[s.size() - 2];
    }
    return 0;
}

// For the scale of a dequantize whose result a GEMM sums over (weight-only
// int8: matmul(x, dequantize(w, scale))), that GEMM's fan-in, else 0.
int64_t dequant_scale_fan_in(const dsl::TaskGraph& g, int tensor) {
    for (const dsl::OpNode& op : g.ops)
        if (op.kind == dsl::OpKind::Dequantize && op.inputs[1] == tensor) return gemm_fan_in(g, op.output);
    return 0;
}

// The rows of the table `tensor` indexes as an embedding's ids, 0 when it
// is not an embedding's ids.
int64_t embedding_rows(const dsl::TaskGraph& g, int tensor) {
    for (const dsl::OpNode& op : g.ops)
        if (op.kind == dsl::OpKind::Embedding && op.inputs[1] == tensor)
            return g.tensors[size_t(op.inputs[0])].shape[0];
    return 0;
}

// Uniform in [-1, 1) from the seed and the tensor's name (so adding an
// input never changes another's values), rounded to the tensor's dtype.
// Weights a GEMM sums over are scaled by sqrt(3 / fan_in) (unit variance
// out for unit variance in), so deep programs stay in float16's range.
func::HostTensor random_tensor(const dsl::TaskGraph& g, int tensor, uint64_t seed) {
    const dsl::TensorNode& t = g.tensors[size_t(tensor)];
    func::HostTensor h;
    h.shape = t.shape, h.dtype = t.dtype;
    uint64_t n = 1;
    for (int64_t d : t.shape) n *= uint64_t(d);
    h.values.resize(n);
    uint64_t state = seed ^ fnv1a(t.name);
    const int64_t fan_in = t.role == dsl::TensorRole::Weight ? gemm_fan_in(g, tensor) : 0;
    // A weight-only int8 weight's scale: the dequantised weight (int8 up to
    // 128 in magnitude times it) gets a float weight's range.
    const int64_t dequant_fan_in = arch::dtype_is_int(t.dtype) ? 0 : dequant_scale_fan_in(g, tensor);
    const double scale = fan_in > 0           ? std::sqrt(3.0 / double(fan_in))
                         : dequant_fan_in > 0 ? std::sqrt(3.0 / double(dequant_fan_in)) / 128.0
                                              : 1.0;
    const int64_t table_rows = t.dtype == arch::DType::Int32 ? embedding_rows(g, tensor) : 0;
    for (float& v : h.values) {
        const double u = double(splitmix64(state) >> 11) * 0x1.0p-53;  // [0, 1)
        v = float((2.0 * u - 1.0) * scale);
        // Integers: every int8 value equally likely; int32 in [-1000, 1000].
        if (t.dtype == arch::DType::Int8) v = float(std::floor(u * 256.0) - 128.0);
        if (t.dtype == arch::DType::Int32) v = float(std::floor(u * 2001.0) - 1000.0);
        // An embedding's ids: token ids, every row of the table alike.
        if (table_rows > 0) v = float(std::floor(u * double(table_rows)));
        if (t.dtype == arch::DType::Float16) v = arch::round_to_half(v);
        if (t.dtype == arch::DType::BFloat16) v = arch::round_to_bfloat16(v);
    }
    return h;
}

}  // namespace

void add_input_option(InputSpec& spec, const std::string& text) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw UsageError("--input: expected NAME=FILE.npy, got '" + text + "'");
    const std::string name = text.substr(0, eq);
    if (!spec.files.emplace(name, text.substr(eq + 1)).second)
        throw UsageError("--input: '" + name + "' is given twice");
}

std::map<int, func::HostTensor> make_inputs(const dsl::TaskGraph& g, const InputSpec& spec,
                                            std::vector<std::string>& sources) {
    std::map<int, func::HostTensor> out;
    std::map<std::string, int> by_name;
    std::string names;
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const dsl::TensorNode& t = g.tensors[i];
        if (t.role != dsl::TensorRole::Input && t.role != dsl::TensorRole::Weight) continue;
        by_name[t.name] = int(i);
        names += (names.empty() ? "" : ", ") + t.name;
    }
    for (const auto& [name, file] : spec.files)
        if (!by_name.count(name))
            throw UsageError("--input: the program has no input or weight '" + name + "'" +
                             (names.empty() ? std::string(" (it has none)") : " (it has: " + names + ")"));
    for (const auto& [name, index] : by_name) {
        const dsl::TensorNode& t = g.tensors[size_t(index)];
        auto file = spec.files.find(name);
        auto value = spec.values.find(name);
        if (file == spec.files.end() && value != spec.values.end()) {
            if (value->second.shape != t.shape || value->second.dtype != t.dtype)
                throw std::logic_error("the imported values of '" + name + "' do not fit the program's declaration");
            out[index] = value->second;
            func::round_run(t.dtype, out[index].values.size(), out[index].values.data());
            sources.push_back(name + ": " + spec.values_source);
            continue;
        }
        if (file == spec.files.end()) {
            out[index] = random_tensor(g, index, spec.seed);
            sources.push_back(name + ": random (seed " + std::to_string(spec.seed) + ")");
            continue;
        }
        func::HostTensor h;
        try {
            h = func::read_npy(file->second);
        } catch (const func::NpyError& e) {
            throw UsageError(std::string("--input ") + name + ": " + e.what());
        }
        // NumPy has no bfloat16: a bfloat16 input comes as float32, rounded
        // to nearest even as the program reads it (docs/functional.md §2).
        if (t.dtype == arch::DType::BFloat16 && h.dtype == arch::DType::Float32) {
            func::round_run(arch::DType::BFloat16, h.values.size(), h.values.data());
            h.dtype = arch::DType::BFloat16;
        }
        if (h.shape != t.shape || h.dtype != t.dtype)
            throw UsageError("--input " + name + ": " + file->second + " is " + shape_text(h.shape) + " " +
                             arch::dtype_name(h.dtype) + ", the program declares " + shape_text(t.shape) + " " +
                             arch::dtype_name(t.dtype));
        out[index] = std::move(h);
        sources.push_back(name + ": " + file->second);
    }
    return out;
}

std::unique_ptr<func::Executor> run_functional(const arch::Config& c, const arch::Program& p,
                                               const std::map<int, func::HostTensor>& inputs) {
    auto ex = std::make_unique<func::Executor>(c, p);
    for (const auto& [index, h] : inputs) {
        const arch::TensorPlacement& t = p.tensors[size_t(index)];
        if (t.l1_addr >= 0 || t.ub_addr >= 0 || t.dtype != h.dtype ||
            t.bytes != h.values.size() * uint64_t(arch::dtype_bytes(h.dtype)))
            throw std::logic_error("the compiled program moved input '" + t.name + "'");
        func::store_run(ex->memory().span(arch::Space::DDR, -1, t.ddr_addr, t.bytes, "input"), h.dtype, h.values.size(),
                        h.values.data());
    }
    try {
        ex->run();
    } catch (const func::DataError& e) {
        throw UsageError(std::string("the functional simulation met bad data: ") + e.what());
    }
    return ex;
}

// DAVINCI_SIM_INJECT_FAULT=K (tests only): perturbs the K-th DDR-reading
// DMA of every compiled program, so a test can show --check catches it.
void inject_fault_from_env(arch::Program& p) {
    const char* k = std::getenv("DAVINCI_SIM_INJECT_FAULT");
    if (!k || !*k) return;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(k, &end, 10);
    if (*end) throw UsageError(std::string("DAVINCI_SIM_INJECT_FAULT: expected a command number, got '") + k + "'");
    const std::string what = func::inject_fault(p, n);
    static bool told = false;
    if (!told)
        std::cerr << "davinci-sim: fault injected (DAVINCI_SIM_INJECT_FAULT): "
                  << (what.empty() ? "none: too few DMA commands" : what) << "\n";
    told = true;
}

std::optional<func::HostTensor> read_tensor(func::Executor& run, const arch::Program& p, size_t t) {
    const arch::TensorPlacement& placement = p.tensors[t];
    const uint8_t* bytes = run.tensor_bytes(p, t);
    if (!bytes) return std::nullopt;
    func::HostTensor h;
    h.shape = placement.shape, h.dtype = placement.dtype;
    const uint64_t n = placement.bytes / uint64_t(arch::dtype_bytes(placement.dtype));
    h.values.resize(n);
    func::load_run(bytes, placement.dtype, n, h.values.data());
    return h;
}

}  // namespace cli
