#ifndef BACKDROP_FUZZ_DRIVER_H
#define BACKDROP_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>
/// Hands the process to libFuzzer's driver (LLVMFuzzerRunDriver), which calls `one_input` with
/// each generated input and parses libFuzzer's own options from argv. Returns -1 at once when the
/// binary was linked without libFuzzer (the ordinary build): the caller then replays files.
int bk_fuzz_run_driver(int *argc, char ***argv, int (*one_input)(const uint8_t *data, size_t size));
/// The process id, to give each fuzzing process its own scratch files.
int bk_fuzz_pid(void);
#endif
