// CLibFuzzer.h — libFuzzer's driver, for the fuzz build's own main (Sources/KeystoneFuzz).
#ifndef KEYSTONE_CLIBFUZZER_H
#define KEYSTONE_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the program's arguments over `callback`. Defined by libFuzzer's runtime
/// (libclang_rt.fuzzer_no_main), which only the fuzz build links.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
