// Runs the real davinci-sim binary and captures what a user would see.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace clitest {

struct Outcome {
    int status = -1;
    std::string out, err;
};

inline std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// A scratch directory per test process, removed when the process ends
// unless one of its tests failed (then its files are left to reproduce the
// failure). Traces and CSVs of whole models reach hundreds of MB: a suite
// that kept them all filled the disk.
class ScratchDir {
public:
    ScratchDir() : path_(std::filesystem::temp_directory_path() / ("davinci-cli-" + std::to_string(::getpid()))) {
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() {
        std::error_code ec;
        if (!::testing::UnitTest::GetInstance()->Failed()) std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline std::filesystem::path scratch() {
    static ScratchDir dir;
    return dir.path();
}

// A little-endian float32 .npy (format 1.0) of `shape` ("(2, 4)") holding `v`.
inline std::string npy_f32(const std::string& shape, const std::vector<float>& v) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::string out = std::string("\x93NUMPY\x01\x00", 8);
    out += char(header.size() & 0xff);
    out += char(header.size() >> 8);
    out += header;
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
    return out;
}

inline std::string write_file(const std::string& name, const std::string& text) {
    std::string path = (scratch() / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// `args` is passed to the shell as is; run from the source directory so
// relative paths such as models/gemm_256.pto work and show up in messages.
inline Outcome run(const std::string& args) {
    std::string out = (scratch() / "stdout").string(), err = (scratch() / "stderr").string();
    std::string cmd = std::string("cd '") + DAVINCI_SOURCE_DIR + "' && '" + DAVINCI_SIM_BINARY + "' " + args + " >'" +
                      out + "' 2>'" + err + "'";
    int raw = std::system(cmd.c_str());
    Outcome o;
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    o.out = slurp(out);
    o.err = slurp(err);
    return o;
}

// One row of a --timing-csv file
// (block,cluster,engine,index,start,end,command_kind,tag,op,task,link_wait,schema_version).
struct TimingRow {
    uint64_t block = 0, cluster = 0, index = 0, start = 0, end = 0;
    std::string engine, command_kind, tag, op, task;
};

// The rows of a --timing-csv file, in file order (tags, operations and
// tasks hold no commas).
inline std::vector<TimingRow> read_timing_csv(const std::string& path) {
    std::istringstream lines(slurp(path));
    std::string line;
    std::getline(lines, line);  // the header
    std::vector<TimingRow> rows;
    while (std::getline(lines, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        if (f.size() < 10) continue;
        TimingRow r;
        r.block = std::stoull(f[0]), r.cluster = std::stoull(f[1]), r.engine = f[2], r.index = std::stoull(f[3]);
        r.start = std::stoull(f[4]), r.end = std::stoull(f[5]), r.command_kind = f[6];
        r.tag = f[7], r.op = f[8], r.task = f[9];
        rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace clitest
