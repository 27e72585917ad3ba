// check.c — Sources/CWebKitGTK/CWebKitGTK.h against the real headers: compiled after them, every
// declaration there must be the same as WebKitGTK's, GTK's and GLib's, every KS_ constant the
// same value, and GError's mirror the same layout. Built by scripts/test.sh with pkg-config's
// flags; it is never linked.
#define _GNU_SOURCE
#include <fcntl.h>
#include <glib-unix.h>
#include <gio/gunixfdlist.h>
#include <gio/gunixinputstream.h>
#include <sys/mman.h>
#include <webkit2/webkit2.h>

#include "../../Sources/CWebKitGTK/CWebKitGTK.h"

_Static_assert(KS_G_PRIORITY_DEFAULT == G_PRIORITY_DEFAULT, "G_PRIORITY_DEFAULT");
_Static_assert(KS_G_IO_IN == G_IO_IN, "G_IO_IN");
_Static_assert(KS_G_SIGNAL_MATCH_DATA == G_SIGNAL_MATCH_DATA, "G_SIGNAL_MATCH_DATA");
_Static_assert(KS_GTK_WINDOW_TOPLEVEL == GTK_WINDOW_TOPLEVEL, "GTK_WINDOW_TOPLEVEL");
_Static_assert(KS_WEBKIT_LOAD_COMMITTED == WEBKIT_LOAD_COMMITTED, "WEBKIT_LOAD_COMMITTED");
_Static_assert(KS_WEBKIT_SCRIPT_DIALOG_ALERT == WEBKIT_SCRIPT_DIALOG_ALERT, "WEBKIT_SCRIPT_DIALOG_ALERT");
_Static_assert(KS_WEBKIT_SCRIPT_DIALOG_CONFIRM == WEBKIT_SCRIPT_DIALOG_CONFIRM, "WEBKIT_SCRIPT_DIALOG_CONFIRM");
_Static_assert(KS_WEBKIT_SCRIPT_DIALOG_PROMPT == WEBKIT_SCRIPT_DIALOG_PROMPT, "WEBKIT_SCRIPT_DIALOG_PROMPT");
_Static_assert(KS_WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES == WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES, "INJECT_ALL_FRAMES");
_Static_assert(KS_WEBKIT_USER_CONTENT_INJECT_TOP_FRAME == WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, "INJECT_TOP_FRAME");
_Static_assert(KS_WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START == WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, "AT_DOCUMENT_START");
_Static_assert(KS_WEBKIT_AUTHENTICATION_SCHEME_HTTP_BASIC == WEBKIT_AUTHENTICATION_SCHEME_HTTP_BASIC, "HTTP_BASIC");
_Static_assert(KS_WEBKIT_AUTHENTICATION_SCHEME_HTTP_DIGEST == WEBKIT_AUTHENTICATION_SCHEME_HTTP_DIGEST, "HTTP_DIGEST");
_Static_assert(KS_WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION == WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, "NAVIGATION_ACTION");
_Static_assert(KS_WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT, "EXCEEDED_MEMORY_LIMIT");
_Static_assert(KS_SOUP_MESSAGE_HEADERS_RESPONSE == SOUP_MESSAGE_HEADERS_RESPONSE, "SOUP_MESSAGE_HEADERS_RESPONSE");
_Static_assert(KS_WEBKIT_WEB_PROCESS_TERMINATED_BY_API == WEBKIT_WEB_PROCESS_TERMINATED_BY_API, "TERMINATED_BY_API");

_Static_assert(KS_WEBKIT_LOAD_STARTED == WEBKIT_LOAD_STARTED, "WEBKIT_LOAD_STARTED");
_Static_assert(KS_WEBKIT_LOAD_REDIRECTED == WEBKIT_LOAD_REDIRECTED, "WEBKIT_LOAD_REDIRECTED");
_Static_assert(KS_WEBKIT_LOAD_FINISHED == WEBKIT_LOAD_FINISHED, "WEBKIT_LOAD_FINISHED");
_Static_assert(KS_WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION, "NEW_WINDOW_ACTION");
_Static_assert(KS_WEBKIT_POLICY_DECISION_TYPE_RESPONSE == WEBKIT_POLICY_DECISION_TYPE_RESPONSE, "RESPONSE");

// Each enumeration the header writes as `unsigned int` is that type in this compiler.
#define SAME_TYPE(a, b) _Static_assert(_Generic((a)0, b: 1, default: 0), #a " is " #b)
SAME_TYPE(WebKitLoadEvent, unsigned int);
SAME_TYPE(WebKitScriptDialogType, unsigned int);
SAME_TYPE(WebKitUserContentInjectedFrames, unsigned int);
SAME_TYPE(WebKitUserScriptInjectionTime, unsigned int);
SAME_TYPE(WebKitPolicyDecisionType, unsigned int);
SAME_TYPE(WebKitNavigationType, unsigned int);
SAME_TYPE(WebKitWebProcessTerminationReason, unsigned int);
SAME_TYPE(GtkWindowType, unsigned int);
SAME_TYPE(GIOCondition, unsigned int);
SAME_TYPE(GSignalMatchType, unsigned int);
SAME_TYPE(GConnectFlags, unsigned int);
SAME_TYPE(SoupMessageHeadersType, unsigned int);

_Static_assert(offsetof(GError, domain) == offsetof(struct ks_error_fields, domain), "GError.domain");
_Static_assert(offsetof(GError, code) == offsetof(struct ks_error_fields, code), "GError.code");
_Static_assert(offsetof(GError, message) == offsetof(struct ks_error_fields, message), "GError.message");

_Static_assert(KS_MFD_CLOEXEC == MFD_CLOEXEC, "MFD_CLOEXEC");
_Static_assert(KS_MFD_ALLOW_SEALING == MFD_ALLOW_SEALING, "MFD_ALLOW_SEALING");
_Static_assert(KS_F_ADD_SEALS == F_ADD_SEALS, "F_ADD_SEALS");
_Static_assert(KS_F_SEAL_SEAL == F_SEAL_SEAL, "F_SEAL_SEAL");
_Static_assert(KS_F_SEAL_SHRINK == F_SEAL_SHRINK, "F_SEAL_SHRINK");
_Static_assert(KS_F_SEAL_GROW == F_SEAL_GROW, "F_SEAL_GROW");
_Static_assert(KS_F_SEAL_WRITE == F_SEAL_WRITE, "F_SEAL_WRITE");
