// libsystemc.so's own main() calls sc_main, so the library leaves the
// symbol undefined, and an interpreter loads extensions with RTLD_NOW: the
// module must define it to load at all. It is never called (the
// interpreter has its own main; runs go through cli::run in a forked
// child, python/native/forked_run.cpp), and exported for libsystemc.so to
// bind to despite the module's hidden visibility.
#include "sim/cli/driver/exit_status.h"

extern "C" __attribute__((visibility("default"))) int sc_main(int, char*[]) { return cli::kExitFailure; }
