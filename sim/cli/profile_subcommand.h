// `davinci-sim profile ARGS -o FILE` is `davinci-sim ARGS --profile FILE`.
#pragma once

#include <string>
#include <vector>

namespace cli {

// The arguments with the subcommand rewritten (unchanged without it);
// false, after a usage error, when -o is missing.
bool rewrite_profile_subcommand(int argc, char* argv[], std::vector<std::string>& args);

}  // namespace cli
