// --functional: the values a program's inputs and weights start with
// (--input files or seeded random numbers), running the compiled program's
// data effects (sim/func/), and reading tensors back out of its memory.
// docs/functional.md describes the behaviour.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/ir/task_graph.h"
#include "sim/arch/config.h"
#include "sim/arch/program.h"
#include "sim/func/executor.h"
#include "sim/func/npy.h"

namespace cli {

// A bad --input and the like: exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct InputSpec {
    std::map<std::string, std::string> files;  // --input NAME=FILE.npy
    uint64_t seed = 0;                         // --seed
    // Values known without a file: an imported ONNX model's weights (its
    // initializers), by tensor name. A --input file of the same name wins.
    std::map<std::string, func::HostTensor> values;
    std::string values_source;  // how the report names them: "model.onnx initializer"
};

// Parses "NAME=FILE"; throws UsageError.
void add_input_option(InputSpec& spec, const std::string& text);

// The values of every input and weight of `g` by tensor index: read from
// its --input file (shape and dtype must be the program's), else from
// spec.values, else seeded random. `sources` gets one "name: file" or "name: random" per tensor.
// Throws UsageError for a file naming no input, a bad file or a mismatch.
std::map<int, func::HostTensor> make_inputs(const dsl::TaskGraph& g, const InputSpec& spec,
                                            std::vector<std::string>& sources);

// Places `inputs` (indices of `lowered`'s tensors, which keep the program's
// inputs' indices) in DDR and runs every command's data effect.
std::unique_ptr<func::Executor> run_functional(const arch::Config& c, const arch::Program& p,
                                               const std::map<int, func::HostTensor>& inputs);

// DAVINCI_SIM_INJECT_FAULT=K (tests only, docs/functional.md §7): perturbs
// the K-th DDR-reading DMA of `p` and says so on stderr, once per run;
// nothing when the variable is unset. Throws UsageError for a bad K.
void inject_fault_from_env(arch::Program& p);

// Tensor `t` of program `p`, which `run` ran, as it was when its values
// were complete: where it is in memory (DDR, or L1 for an on-chip one), or
// as the run kept it when later tensors take its DDR bytes (a strand's
// workspace); empty for such a tensor that no command writes.
std::optional<func::HostTensor> read_tensor(func::Executor& run, const arch::Program& p, size_t t);

}  // namespace cli
