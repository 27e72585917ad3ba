// keystone-web-process-extension.h — the part of WebKitGTK 4.1's web-process extension API, GLib and
// GObject that Keystone's web-process extension uses, declared here so it builds with nothing but a
// C compiler: no headers of WebKitGTK's, no pkg-config, no libraries named. Its symbols are WebKit's
// web process's own, resolved when the web process loads the extension.
//
// Each type is an incomplete struct under the tag the real headers use and each function is
// declared as they declare it (webkit/WebKitWebExtension.h, WebKitWebPage.h, WebKitUserMessage.h;
// glib/gvariant.h; gobject/gsignal.h): Tests/Declarations/check-extension.c compiles this file after
// the real headers, so a prototype that differs fails the test command.
#ifndef KEYSTONE_WEB_PROCESS_EXTENSION_H
#define KEYSTONE_WEB_PROCESS_EXTENSION_H

typedef char gchar;
typedef int gint;
typedef gint gboolean;
typedef unsigned int guint32;
typedef unsigned long gulong;
typedef void *gpointer;

typedef struct _GVariant GVariant;
typedef struct _GClosure GClosure;
typedef struct _GCancellable GCancellable;
typedef struct _GAsyncResult GAsyncResult;
typedef struct _GObject GObject;
typedef void (*GCallback)(void);
typedef void (*GClosureNotify)(gpointer data, GClosure *closure);
typedef void (*GAsyncReadyCallback)(GObject *source_object, GAsyncResult *res, gpointer data);

typedef struct _WebKitWebExtension WebKitWebExtension;
typedef struct _WebKitWebPage WebKitWebPage;
typedef struct _WebKitUserMessage WebKitUserMessage;

// glib/gvariant.h
extern GVariant *g_variant_new_uint32(guint32 value);

// gobject/gsignal.h (GConnectFlags is an enumeration: unsigned int)
extern gulong g_signal_connect_data(gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data,
                                    GClosureNotify destroy_data, unsigned int connect_flags);

// webkit/WebKitUserMessage.h
extern WebKitUserMessage *webkit_user_message_new(const char *name, GVariant *parameters);

// webkit/WebKitWebPage.h
extern void webkit_web_page_send_message_to_view(WebKitWebPage *web_page, WebKitUserMessage *message, GCancellable *cancellable,
                                                 GAsyncReadyCallback callback, gpointer user_data);

// webkit/WebKitWebExtension.h: the entry point WebKit's web process calls, exported by the extension.
__attribute__((visibility("default"))) void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension,
                                                                                          const GVariant *user_data);

#endif
