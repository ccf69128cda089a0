// SCALE-Sim topology files (`davinci-sim --topology FILE.csv`): every layer
// of the file becomes one operation of a program, compiled and simulated
// like any other, with SCALE-Sim's conventions (single_op.h's --op conv2d):
// no padding, output size ceil((H - R + stride) / stride).
//
// The two forms SCALE-Sim reads, a header line first (which form: a header
// whose second field is "M"), then one layer per line:
//   convolutions: name, IFMAP height, IFMAP width, filter height, filter
//                 width, channels, filters, stride[, stride width]
//   GEMMs:        name, M, N, K
// SCALE-Sim's rows end with a comma (it drops each row's last field); that
// comma is optional here. Blank lines are skipped. A convolution whose name
// contains "DP" is depthwise, as SCALE-Sim reads it: one layer per channel,
// named <name>Channel_<c>, each of one channel. A file holds at most 65,536
// layers, so counted.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dsl/support/source_location.h"
#include "sim/arch/program.h"

namespace dsl {

struct TopologyLayer {
    std::string name;  // as the file names it
    int line = 0;      // 1-based line of the file
    bool gemm = false;
    // The convolution's fields (gemm: unused).
    int64_t H = 0, W = 0, R = 0, S = 0, C = 0, F = 0, stride_h = 1, stride_w = 1;
    // The GEMM SCALE-Sim computes: M output pixels (rows of A), N filters,
    // K = R * S * C; for a GEMM row its M, N, K.
    int64_t M = 0, N = 0, K = 0;
};

struct Topology {
    std::string path;
    bool gemm = false;  // the GEMM form
    std::vector<TopologyLayer> layers;
};

// "FILE:LINE: what is wrong", or "FILE: ..." for the file as a whole.
class TopologyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

Topology read_topology(const std::string& path);
Topology parse_topology(const std::string& path, const std::string& text);

// The program: layer i reads its own inputs and writes output i, named
// after the layer (characters other than letters, digits and '_' as '_';
// a repeated name gets "_2", "_3", ...). Each layer is one operation, in
// file order.
std::shared_ptr<const SourceFile> topology_source(const Topology& t, arch::DType dtype);

// The output (and operation) name topology_source gives each layer.
std::vector<std::string> topology_op_names(const Topology& t);

}  // namespace dsl
