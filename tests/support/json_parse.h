// nlohmann's parser, compiled once for every test binary
// (tests/support/json_parse.cpp) instead of in each test file that reads a
// report or writes a config: instantiated there it was a quarter of such a
// file's compile time, and half of it in the sanitized build (CI's 90
// minutes). Same behaviour as nlohmann::json::parse(text); not
// arch::parse_json_text, which refuses duplicate keys and words its errors
// for a user's file.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace testjson {

nlohmann::json parse(const std::string& text);

}  // namespace testjson
