// NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian
// float16 ('<f2') or float32 ('<f4') arrays in C order, the tensors
// --input reads and --outputs writes (docs/functional.md §4).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/arch/program.h"

namespace func {

// A tensor's values on the host, row-major; float16 values are held as the
// floats they are exactly.
struct HostTensor {
    std::vector<int64_t> shape;
    arch::DType dtype = arch::DType::Float16;
    std::vector<float> values;
};

class NpyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws NpyError "<path>: <what>" for an unreadable file, another format,
// a dtype other than float16/float32, Fortran order or a short payload.
HostTensor read_npy(const std::string& path);
// The .npy bytes of `t` (version 1.0, header padded to 64 bytes as NumPy does).
std::string npy_bytes(const HostTensor& t);

}  // namespace func
