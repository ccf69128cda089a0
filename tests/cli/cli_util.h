// Runs the real davinci-sim binary and captures what a user would see.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

// A scratch directory per test process.
inline std::filesystem::path scratch() {
    static std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path() / ("davinci-cli-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
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

}  // namespace clitest
