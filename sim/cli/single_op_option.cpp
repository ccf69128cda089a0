#include "sim/cli/single_op_option.h"

#include <iostream>
#include <memory>
#include <stdexcept>

#include "dsl/frontend/single_op.h"
#include "dsl/frontend/topology.h"
#include "sim/cli/driver/exit_status.h"
#include "sim/cli/usage.h"

namespace cli {

namespace {

int sizes_error(dsl::OpSizes::Error error, const std::string& spec) {
    if (error == dsl::OpSizes::Error::NotPositive)
        return usage_error("--shape: the operation's sizes must be positive, got '" + spec + "'");
    return usage_error("--shape: expected numbers separated by commas, got '" + spec + "'");
}

// --dtype's operand type (float16 without it); 0, or the status of a usage error.
int parse_dtype(const boost::program_options::variables_map& vm, arch::DType& dtype) {
    dtype = arch::DType::Float16;
    if (!vm.count("dtype")) return 0;
    const std::string d = vm["dtype"].as<std::string>();
    if (d == "float32" || d == "fp32") dtype = arch::DType::Float32;
    else if (d == "bfloat16" || d == "bf16") dtype = arch::DType::BFloat16;
    else if (d == "int8") dtype = arch::DType::Int8;  // matmul only: int8 x int8 -> int32
    else if (d != "float16" && d != "fp16")
        return usage_error("--dtype: expected float16, bfloat16, float32 or int8, got '" + d + "'");
    return 0;
}

}  // namespace

int parse_single_op(const boost::program_options::variables_map& vm, RunOptions& opt) {
    if (vm.count("program") || vm.count("program-json")) return usage_error("--op takes the place of a program");
    if (!vm.count("shape")) return usage_error("--op needs --shape with the operation's sizes");
    const auto specs = vm["shape"].as<std::vector<std::string>>();
    if (specs.size() > 1) return usage_error("--op takes one --shape");
    const dsl::OpSizes sizes = dsl::parse_op_sizes(specs[0]);
    if (sizes.error != dsl::OpSizes::Error::None) return sizes_error(sizes.error, specs[0]);
    arch::DType dtype = arch::DType::Float16;
    if (int rc = parse_dtype(vm, dtype)) return rc;
    try {
        opt.single_op = dsl::single_op_source(vm["op"].as<std::string>(), sizes.dims, dtype);
    } catch (const std::invalid_argument& e) {
        return usage_error(e.what());
    }
    opt.program = opt.single_op->path;
    return 0;
}

int parse_topology_option(const boost::program_options::variables_map& vm, RunOptions& opt) {
    if (vm.count("program")) return usage_error("--topology takes the place of a program");
    for (const char* other : {"program-json", "op", "shape"})
        if (vm.count(other)) return usage_error(std::string("--topology takes the place of --") + other);
    arch::DType dtype = arch::DType::Float16;
    if (int rc = parse_dtype(vm, dtype)) return rc;
    try {
        auto topology = std::make_shared<dsl::Topology>(dsl::read_topology(vm["topology"].as<std::string>()));
        opt.single_op = dsl::topology_source(*topology, dtype);
        opt.topology = std::move(topology);
    } catch (const dsl::TopologyError& e) {
        std::cerr << "davinci-sim: error: " << e.what() << "\n";
        return kExitUsage;
    }
    opt.program = opt.topology->path;
    return 0;
}

}  // namespace cli
