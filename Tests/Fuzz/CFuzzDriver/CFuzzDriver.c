// libFuzzer's driver is referenced weakly: the fuzz build links libclang_rt.fuzzer_no_main whole
// (mk/fuzz.mk), every other build leaves the symbol NULL and still links. libFuzzer's own main
// cannot be used because Swift's main.swift defines main.
#include "CFuzzDriver.h"
#include <unistd.h>

extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*one_input)(const uint8_t *, size_t))
    __attribute__((weak));

int bk_fuzz_run_driver(int *argc, char ***argv, int (*one_input)(const uint8_t *data, size_t size)) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, one_input);
}

int bk_fuzz_pid(void) { return (int)getpid(); }
