#include "sim/func/npy.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/arch/half.h"
#include "sim/func/numerics.h"

namespace func {

namespace {

const char kMagic[] = "\x93NUMPY";

std::string shape_text(const std::vector<int64_t>& s) {
    std::string t = "(";
    for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
    return t + (s.size() == 1 ? ",)" : ")");
}

// The value text of `key` in the header dict: "'<f2'", "False", "(3, 4)".
std::string dict_value(const std::string& header, const std::string& key, const std::string& path) {
    const size_t k = header.find("'" + key + "'");
    if (k == std::string::npos) throw NpyError(path + ": the .npy header has no '" + key + "'");
    size_t v = header.find(':', k);
    if (v == std::string::npos) throw NpyError(path + ": malformed .npy header");
    ++v;
    while (v < header.size() && header[v] == ' ') ++v;
    size_t end = v;
    if (header[v] == '(') end = header.find(')', v) + 1;
    else if (header[v] == '\'' || header[v] == '"') end = header.find(header[v], v + 1) + 1;
    else
        while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
    if (end == 0 || end > header.size()) throw NpyError(path + ": malformed .npy header");
    return header.substr(v, end - v);
}

}  // namespace

HostTensor read_npy(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw NpyError(path + ": cannot open: " + std::strerror(errno));
    std::ostringstream ss;
    ss << f.rdbuf();
    const std::string bytes = ss.str();
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) throw NpyError(path + ": not a NumPy .npy file");
    const int major = uint8_t(bytes[6]);
    if (major < 1 || major > 3)
        throw NpyError(path + ": .npy format version " + std::to_string(major) + " is not supported (1, 2 or 3)");
    size_t header_len = 0, at = 0;
    if (major == 1) {
        header_len = uint8_t(bytes[8]) | size_t(uint8_t(bytes[9])) << 8;
        at = 10;
    } else {
        if (bytes.size() < 12) throw NpyError(path + ": truncated .npy header");
        for (int i = 0; i < 4; ++i) header_len |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
        at = 12;
    }
    if (bytes.size() < at + header_len) throw NpyError(path + ": truncated .npy header");
    const std::string header = bytes.substr(at, header_len);
    at += header_len;
    std::string descr = dict_value(header, "descr", path);
    if (descr.size() >= 2) descr = descr.substr(1, descr.size() - 2);
    HostTensor t;
    if (descr == "<f2" || descr == "=f2") t.dtype = arch::DType::Float16;
    else if (descr == "<f4" || descr == "=f4") t.dtype = arch::DType::Float32;
    else if (descr == "|i1" || descr == "<i1" || descr == "=i1") t.dtype = arch::DType::Int8;
    else if (descr == "<i4" || descr == "=i4") t.dtype = arch::DType::Int32;
    else
        throw NpyError(path + ": dtype '" + descr +
                       "' is not supported (float16 '<f2', float32 '<f4', int8 '|i1' or int32 '<i4')");
    if (dict_value(header, "fortran_order", path) != "False")
        throw NpyError(path +
                       ": Fortran-order arrays are not supported (save a C-order array: numpy.ascontiguousarray)");
    const std::string shape = dict_value(header, "shape", path);
    uint64_t count = 1;
    for (size_t i = 1; i < shape.size();) {
        while (i < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
        if (i >= shape.size() || shape[i] == ')') break;
        size_t used = 0;
        long long d = 0;
        try {
            d = std::stoll(shape.substr(i), &used);
        } catch (const std::exception&) {
            throw NpyError(path + ": malformed shape " + shape + " in the .npy header");
        }
        if (d < 0) throw NpyError(path + ": malformed shape " + shape + " in the .npy header");
        t.shape.push_back(d);
        count *= uint64_t(d);
        i += used;
    }
    const uint64_t e = uint64_t(arch::dtype_bytes(t.dtype));
    if (bytes.size() - at < count * e)
        throw NpyError(path + ": holds " + std::to_string((bytes.size() - at) / e) + " elements, its shape " +
                       shape_text(t.shape) + " needs " + std::to_string(count));
    t.values.resize(count);
    const char* p = bytes.data() + at;
    for (uint64_t i = 0; i < count; ++i) {
        if (arch::dtype_is_int(t.dtype)) {
            t.values[i] = load_one(reinterpret_cast<const uint8_t*>(p) + e * i, t.dtype);
        } else if (t.dtype == arch::DType::Float32) {
            std::memcpy(&t.values[i], p + 4 * i, 4);
        } else {
            uint16_t h;
            std::memcpy(&h, p + 2 * i, 2);
            t.values[i] = arch::half_to_float(h);
        }
    }
    return t;
}

std::string npy_bytes(const HostTensor& t) {
    // NumPy has no bfloat16: a bfloat16 tensor is written as float32, which
    // holds every bfloat16 value exactly.
    const bool f32 = t.dtype == arch::DType::Float32 || t.dtype == arch::DType::BFloat16;
    const bool ints = arch::dtype_is_int(t.dtype);
    const char* descr = t.dtype == arch::DType::Int8    ? "|i1"
                        : t.dtype == arch::DType::Int32 ? "<i4"
                        : f32                           ? "<f4"
                                                        : "<f2";
    std::string header =
        std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape_text(t.shape) + ", }";
    // Magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
    const size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
    header.append(total - 10 - header.size() - 1, ' ');
    header += '\n';
    std::string out(kMagic, 6);
    out += char(1), out += char(0);
    out += char(header.size() & 0xff), out += char(header.size() >> 8);
    out += header;
    for (float v : t.values) {
        if (ints) {
            uint8_t b[4];
            store_one(b, t.dtype, v);
            out.append(reinterpret_cast<const char*>(b), size_t(arch::dtype_bytes(t.dtype)));
        } else if (f32) {
            out.append(reinterpret_cast<const char*>(&v), 4);
        } else {
            const uint16_t h = arch::float_to_half(v);
            out.append(reinterpret_cast<const char*>(&h), 2);
        }
    }
    return out;
}

}  // namespace func
