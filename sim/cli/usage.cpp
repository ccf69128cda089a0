#include "sim/cli/usage.h"

#include <iostream>

#include "sim/cli/driver/exit_status.h"

namespace cli {

const char* const kUsage =
    "usage: davinci-sim [options] PROGRAM.pto\n"
    "       davinci-sim [options] MODEL.onnx   (an ONNX model: docs/onnx.md)\n"
    "       davinci-sim [options] --program-json PROGRAM.json\n"
    "       davinci-sim [options] --op matmul --shape M,K,N [--dtype float32]\n"
    "       davinci-sim [options] --op conv2d --shape H,W,C,R,S,F,stride [--dtype float32]\n"
    "       davinci-sim [options] --topology LAYERS.csv [--ops-csv REPORT.csv]\n"
    "       davinci-sim profile [options] PROGRAM.pto -o PROFILE.json   (= --profile PROFILE.json)\n";

int usage_error(const std::string& message) {
    std::cerr << "davinci-sim: error: " << message << "\n" << kUsage << "try 'davinci-sim --help'\n";
    return kExitUsage;
}

}  // namespace cli
