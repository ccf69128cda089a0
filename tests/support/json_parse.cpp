#include "tests/support/json_parse.h"

namespace testjson {

nlohmann::json parse(const std::string& text) { return nlohmann::json::parse(text); }

}  // namespace testjson
