// The driver library links the SystemC model, whose libsystemc defines
// main() and needs an sc_main; the sanitized build's linker insists on it
// even though these tests never simulate. Same shape as tests/hw/main.cpp.
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
