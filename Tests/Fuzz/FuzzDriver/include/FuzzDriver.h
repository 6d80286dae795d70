#ifndef PINCTL_FUZZ_DRIVER_H
#define PINCTL_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry for a program that has its own main (compiler-rt's libclang_rt.fuzzer_no_main, which the fuzz
// targets link when PINCTL_FUZZ_RUNTIME names it): SwiftPM gives every executable target a main of its own, so
// libFuzzer's main cannot be the one that runs. Declared here, as Swift can only call a C function it sees declared.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
