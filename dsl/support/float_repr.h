// How the language prints a float (print, pypo.log, messages, --dump-graph
// attributes): as Python does.
#pragma once

#include <string>

namespace dsl {

// Python's repr of a float: the shortest text that reads back as the same
// double, positional for exponents -4..15 ("10.0", "0.0001"), else
// scientific ("1e+16", "1.5e-05").
std::string float_repr(double d);

}  // namespace dsl
