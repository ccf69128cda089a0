#include "sim/hw/sim_time.h"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace hw {

namespace {

void throwing_handler(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
    if (actions & (sc_core::SC_THROW | sc_core::SC_ABORT | sc_core::SC_STOP))
        throw std::runtime_error(std::string("SystemC: ") + rep.get_msg_type() + ": " + rep.get_msg());
    if (actions & sc_core::SC_DISPLAY)
        std::fprintf(stderr, "SystemC warning: %s: %s\n", rep.get_msg_type(), rep.get_msg());
}

}  // namespace

void setup_systemc() {
    static bool done = false;
    if (done) return;
    done = true;
    // "1 ns" is our cycle; the real clock period only matters in reports.
    sc_core::sc_set_time_resolution(1, sc_core::SC_NS);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DISPLAY);
    sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_handler(throwing_handler);
}

}  // namespace hw
