// Parsing a user's JSON file (a hardware config, a command program) with
// the checks nlohmann does not make: the position of a syntax error as
// line:column, and duplicate keys, which nlohmann silently resolves to the
// last one — a config that says a thing twice is refused, not guessed at.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace arch {

// what() is the complete message, "ORIGIN:LINE:COL: invalid JSON: REASON" or
// "ORIGIN: KEY.PATH: duplicate key (given twice in one object)"; the loaders
// rethrow it as their own error type.
class JsonTextError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

nlohmann::json parse_json_text(const std::string& text, const std::string& origin);

// Reads a whole file; throws JsonTextError "PATH: cannot open file" for a
// missing or unreadable file or a directory.
std::string read_json_file(const std::string& path);

}  // namespace arch
