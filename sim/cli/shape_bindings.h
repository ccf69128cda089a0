// `--shape name=1,3,224,224`: values for the None dimensions a program
// leaves open (pypo.input shapes, @pypo.shape_hint).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cli {

// Throws std::invalid_argument with the message to print, e.g.
// "--shape: expected NAME=D0,D1,... with positive integers, got 'x=1,,3'".
std::map<std::string, std::vector<int64_t>> parse_shape_bindings(const std::vector<std::string>& specs);

}  // namespace cli
