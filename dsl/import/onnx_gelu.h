// GELU as exporters write it. ONNX 1.12 has no Gelu operator, so PyTorch
// exports nn.GELU() as its definition, x * 0.5 * (1 + erf(x / sqrt(2))):
//
//     d = Div(x, 1.4142135)   (or Mul(x, 0.70710677))
//     e = Erf(d)
//     a = Add(e, 1)
//     m = Mul(x, a)
//     y = Mul(m, 0.5)
//
// (operands of Add and Mul in either order). The language has no erf but
// has pypo.op.gelu, the same function: such a subgraph becomes one gelu,
// provided no other node and no graph output reads its inner tensors.
#pragma once

#include <map>
#include <set>
#include <string>

#include <onnx/onnx_pb.h>

namespace dsl {

struct GeluPatterns {
    std::set<int> inner;                 // Div, Erf, Add, Mul: not translated
    std::map<int, std::string> last_of;  // the final Mul's index -> x, the GELU's input
};

GeluPatterns find_gelu_patterns(const onnx::GraphProto& g);

}  // namespace dsl
