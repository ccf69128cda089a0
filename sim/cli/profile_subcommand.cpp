#include "sim/cli/profile_subcommand.h"

#include <algorithm>

#include "sim/cli/usage.h"

namespace cli {

bool rewrite_profile_subcommand(int argc, char* argv[], std::vector<std::string>& args) {
    args.assign(argv, argv + argc);
    if (argc < 2 || args[1] != "profile") return true;
    args.erase(args.begin() + 1);
    bool output = false;
    for (std::string& a : args)
        if (a == "-o" || a == "--output") a = "--profile", output = true;
        else if (a.rfind("-o", 0) == 0 && a.size() > 2 && a[2] != '-') a = "--profile=" + a.substr(2), output = true;
        else if (a.rfind("--output=", 0) == 0) a = "--profile=" + a.substr(9), output = true;
    if (!output && std::find(args.begin(), args.end(), "--help") == args.end() &&
        std::find(args.begin(), args.end(), "-h") == args.end()) {
        usage_error("profile: no output file (-o PROFILE.json)");
        return false;
    }
    return true;
}

}  // namespace cli
