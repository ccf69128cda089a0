#include "sim/cli/driver/failure.h"

#include <new>

#include "sim/arch/environment_error.h"
#include "sim/cli/driver/exit_status.h"

namespace cli {

int report_failure(const std::exception_ptr& e, std::ostream& err) {
    try {
        std::rethrow_exception(e);
    } catch (const arch::EnvironmentError& x) {
        err << "davinci-sim: error: " << x.what() << "\n";
        return kExitEnvironment;
    } catch (const std::bad_alloc&) {
        err << "davinci-sim: error: out of memory (the machine's memory or this process's limit is too small for "
               "this run; simulate a smaller instance of the program)\n";
        return kExitEnvironment;
    } catch (const std::exception& x) {
        err << "davinci-sim: internal error \u2014 please report: " << x.what() << "\n";
    } catch (...) {
        err << "davinci-sim: internal error \u2014 please report: an exception of unknown type\n";
    }
    return kExitFailure;
}

}  // namespace cli
