// The main of every test binary that links SystemC (hw_tests, driver_tests;
// tests/CMakeLists.txt adds it): libsystemc owns main() (sc_elab_and_sim ->
// sc_main), and a process may elaborate only once, so ctest runs each test
// in its own process.
#include <cstdlib>

#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char* argv[]) {
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
