// .npy reading and writing: the bytes NumPy writes, round trips, and the
// errors for files the simulator cannot use.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "sim/func/npy.h"

namespace {

std::string scratch(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("davinci-npy-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = scratch(name);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// A version-1 file as NumPy writes it: header padded with spaces to 64 bytes.
std::string npy_v1(const std::string& dict, const std::string& payload) {
    std::string header = dict;
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string out = "\x93NUMPY";
    out += char(1), out += char(0), out += char(header.size() & 0xff), out += char(header.size() >> 8);
    return out + header + payload;
}

TEST(Npy, WritesWhatNumPyWrites) {
    // numpy.save(np.arange(1, 7, dtype=np.float32).reshape(2, 3)), byte for byte.
    func::HostTensor t{{2, 3}, arch::DType::Float32, {1, 2, 3, 4, 5, 6}};
    const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    std::string header =
        std::string("\x93NUMPY\x01\x00\x76\x00", 10) + dict + std::string(128 - 10 - dict.size() - 1, ' ') + "\n";
    const float values[] = {1, 2, 3, 4, 5, 6};
    EXPECT_EQ(func::npy_bytes(t), header + std::string(reinterpret_cast<const char*>(values), sizeof values));
}

TEST(Npy, RoundTripsFloat16AndOneAxis) {
    func::HostTensor t{{5}, arch::DType::Float16, {0.5f, -2.0f, 65504.0f, 0x1p-24f, 0.0f}};
    const std::string path = write("h.npy", func::npy_bytes(t));
    func::HostTensor back = func::read_npy(path);
    EXPECT_EQ(back.shape, t.shape);
    EXPECT_EQ(back.dtype, arch::DType::Float16);
    EXPECT_EQ(back.values, t.values);
}

TEST(Npy, ReadsVersion2AndScalars) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (), }";
    while ((12 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string v2 = "\x93NUMPY";
    v2 += char(2), v2 += char(0);
    for (int i = 0; i < 4; ++i) v2 += char((header.size() >> (8 * i)) & 0xff);
    const float x = 3.25f;
    v2 += header + std::string(reinterpret_cast<const char*>(&x), 4);
    func::HostTensor t = func::read_npy(write("v2.npy", v2));
    EXPECT_TRUE(t.shape.empty());
    ASSERT_EQ(t.values.size(), 1u);
    EXPECT_EQ(t.values[0], 3.25f);
}

TEST(Npy, RefusesWhatItCannotUse) {
    auto error = [](const std::string& name, const std::string& bytes) {
        const std::string path = write(name, bytes);
        try {
            func::read_npy(path);
        } catch (const func::NpyError& e) {
            return std::string(e.what()).substr(path.size());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error("text.npy", "hello"), ": not a NumPy .npy file");
    EXPECT_EQ(
        error("f8.npy", npy_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0'))),
        ": dtype '<f8' is not supported (float16 '<f2', float32 '<f4', int8 '|i1' or int32 '<i4')");
    EXPECT_EQ(
        error("fortran.npy", npy_v1("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", std::string(4, '\0'))),
        ": Fortran-order arrays are not supported (save a C-order array: numpy.ascontiguousarray)");
    EXPECT_EQ(
        error("short.npy", npy_v1("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 2), }", std::string(6, '\0'))),
        ": holds 3 elements, its shape (2, 2) needs 4");
    EXPECT_EQ(error("missing.npy", ""), ": not a NumPy .npy file");
}

TEST(Npy, MissingFileSaysWhy) {
    try {
        func::read_npy("/nonexistent/x.npy");
        FAIL();
    } catch (const func::NpyError& e) {
        EXPECT_STREQ(e.what(), "/nonexistent/x.npy: cannot open: No such file or directory");
    }
}

}  // namespace
