// check-extension.c — Sources/KeystoneGTK/WebProcessExtension/keystone-web-process-extension.h
// against the real headers of WebKitGTK's web-process extension API: compiled after them, every
// declaration there must be the same as WebKitGTK's, GLib's and GObject's. Built by scripts/test.sh
// with pkg-config's flags; it is never linked.
#include <webkit2/webkit-web-extension.h>

#include "../../Sources/KeystoneGTK/WebProcessExtension/keystone-web-process-extension.h"

_Static_assert(sizeof(GConnectFlags) == sizeof(unsigned int), "GConnectFlags is an unsigned int");
_Static_assert(KS_JSC_TYPED_ARRAY_UINT8 == JSC_TYPED_ARRAY_UINT8, "JSC_TYPED_ARRAY_UINT8");
_Static_assert(sizeof(JSCTypedArrayType) == sizeof(unsigned int), "JSCTypedArrayType is an unsigned int");

// The shim's extension's own further declarations (Tests/WebKitShim/WebProcessExtension).
#include "../WebKitShim/WebProcessExtension/wkshim-web-process-extension.h"
