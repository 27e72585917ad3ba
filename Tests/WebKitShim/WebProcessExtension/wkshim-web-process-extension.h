// wkshim-web-process-extension.h — what the shim's web-process extension uses beyond Keystone's own
// (Sources/KeystoneGTK/WebProcessExtension/keystone-web-process-extension.h), declared as WebKitGTK
// 4.1's headers declare it (webkit/WebKitFrame.h; jsc/JSCContext.h, JSCException.h, JSCValue.h;
// glib/gvariant.h): Tests/Declarations/check-extension.c compiles this file after the real headers.
#ifndef WKSHIM_WEB_PROCESS_EXTENSION_H
#define WKSHIM_WEB_PROCESS_EXTENSION_H

#include "../../../Sources/KeystoneGTK/WebProcessExtension/keystone-web-process-extension.h"
#include "../../../Sources/KeystoneGTK/WebProcessExtension/keystone-frame-list.h"

typedef struct _JSCException JSCException;

// glib/gvariant.h, glib/gmem.h
extern GVariant *g_variant_new_string(const gchar *string);
extern GVariant *g_variant_new_tuple(GVariant *const *children, gsize n_children);
extern void g_free(gpointer mem);
extern gsize g_variant_n_children(GVariant *value);

// webkit/WebKitFrame.h
extern guint64 webkit_frame_get_id(WebKitFrame *frame);

// jsc/JSCContext.h, jsc/JSCException.h, jsc/JSCValue.h
extern JSCException *jsc_context_get_exception(JSCContext *context);
extern const char *jsc_exception_get_message(JSCException *exception);
extern guint jsc_exception_get_line_number(JSCException *exception);
extern guint jsc_exception_get_column_number(JSCException *exception);
extern const char *jsc_exception_get_source_uri(JSCException *exception);
extern gboolean jsc_value_is_string(JSCValue *value);
extern char *jsc_value_to_string(JSCValue *value);

#endif
