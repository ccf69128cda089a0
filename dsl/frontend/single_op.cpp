#include "dsl/frontend/single_op.h"

#include <stdexcept>

namespace dsl {

namespace {

std::string dims_text(const std::vector<int64_t>& d, const char* sep) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i) s += (i ? sep : "") + std::to_string(d[i]);
    return s;
}

void require(const std::string& op, const std::vector<int64_t>& dims, size_t n, const char* form) {
    if (dims.size() != n)
        throw std::invalid_argument("--op " + op + " needs --shape " + form + " (" + std::to_string(n) +
                                    " numbers), got " + std::to_string(dims.size()));
    for (int64_t d : dims)
        if (d < 1) throw std::invalid_argument("--op " + op + ": every --shape number must be positive");
}

}  // namespace

OpSizes parse_op_sizes(const std::string& text) {
    OpSizes sizes;
    for (size_t start = 0;;) {
        const size_t comma = text.find(',', start);
        const std::string d = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (d.empty() || d.size() > 12 || d.find_first_not_of("0123456789") != std::string::npos) {
            sizes.error = OpSizes::Error::NotNumbers;
            return sizes;
        }
        sizes.dims.push_back(std::stoll(d));
        if (sizes.dims.back() == 0) {
            sizes.error = OpSizes::Error::NotPositive;
            return sizes;
        }
        if (comma == std::string::npos) return sizes;
        start = comma + 1;
    }
}

std::shared_ptr<const SourceFile> single_op_source(const std::string& op, const std::vector<int64_t>& dims,
                                                   arch::DType dtype) {
    const std::string dt = std::string("\"") + arch::dtype_name(dtype) + "\"";
    std::string text = "import pypto as pypo\n";
    std::string label;
    if (op == "matmul") {
        require(op, dims, 3, "M,K,N");
        const int64_t M = dims[0], K = dims[1], N = dims[2];
        text +=
            "a = pypo.input(\"a\", shape=(" + std::to_string(M) + ", " + std::to_string(K) + "), dtype=" + dt + ")\n";
        text +=
            "b = pypo.input(\"b\", shape=(" + std::to_string(K) + ", " + std::to_string(N) + "), dtype=" + dt + ")\n";
        text += "pypo.output(\"c\", pypo.op.matmul(a, b))\n";
        label = "matmul " + dims_text(dims, "x");
    } else if (op == "conv2d") {
        require(op, dims, 7, "H,W,C,R,S,F,stride");
        const int64_t H = dims[0], W = dims[1], C = dims[2], R = dims[3], S = dims[4], F = dims[5], st = dims[6];
        if (R > H || S > W)
            throw std::invalid_argument("--op conv2d: the " + std::to_string(R) + "x" + std::to_string(S) +
                                        " filter is larger than the " + std::to_string(H) + "x" + std::to_string(W) +
                                        " input");
        text += "x = pypo.input(\"x\", shape=(1, " + std::to_string(H) + ", " + std::to_string(W) + ", " +
                std::to_string(C) + "), dtype=" + dt + ", layout=\"NHWC\")\n";
        text += "w = pypo.weight(\"w\", shape=(" + std::to_string(F) + ", " + std::to_string(C) + ", " +
                std::to_string(R) + ", " + std::to_string(S) + "), dtype=" + dt + ")\n";
        // SCALE-Sim's output size, ceil((H - R + stride) / stride): rounding up.
        text += "pypo.output(\"y\", pypo.op.conv2d(x, w, stride=" + std::to_string(st) + ", rounding=\"ceil\"))\n";
        label = "conv2d " + dims_text(dims, ",");
    } else {
        throw std::invalid_argument("--op: expected matmul or conv2d, got '" + op + "'");
    }
    auto f = std::make_shared<SourceFile>();
    f->path = "<--op " + label + " " + arch::dtype_name(dtype) + ">";
    f->text = text;
    return f;
}

}  // namespace dsl
