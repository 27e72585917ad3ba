// CLibFuzzer.c — nothing to define: the header declares what libFuzzer's runtime provides.
#include "CLibFuzzer.h"
