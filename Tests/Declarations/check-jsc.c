// check-jsc.c — Sources/CJavaScriptCore/CJavaScriptCore.h against JavaScriptCore's real C headers:
// compiled after them, every declaration there must be the same. Built by scripts/test.sh with
// pkg-config's flags; it is never linked.
#include <JavaScriptCore/JavaScript.h>

#include "../../Sources/CJavaScriptCore/CJavaScriptCore.h"
