// keystone-web-process-extension.h — the part of WebKitGTK 4.1's web-process extension API, GLib and
// GObject that Keystone's web-process extension uses, declared here so it builds with nothing but a
// C compiler: no headers of WebKitGTK's, no pkg-config, no libraries named. Its symbols are WebKit's
// web process's own, resolved when the web process loads the extension.
//
// Each type is an incomplete struct under the tag the real headers use and each function is
// declared as they declare it (webkit/WebKitWebExtension.h, WebKitWebPage.h, WebKitFrame.h,
// WebKitScriptWorld.h, WebKitUserMessage.h; jsc/JSCContext.h, JSCValue.h; glib/gvariant.h;
// gobject/gobject.h, gsignal.h): Tests/Declarations/check-extension.c compiles this file after
// the real headers, so a prototype that differs fails the test command.
#ifndef KEYSTONE_WEB_PROCESS_EXTENSION_H
#define KEYSTONE_WEB_PROCESS_EXTENSION_H

typedef char gchar;
typedef int gint;
typedef gint gboolean;
typedef unsigned int guint;
typedef unsigned int guint32;
typedef unsigned long gulong;
typedef unsigned long gsize;
typedef unsigned long guint64;
typedef long gssize;
typedef void *gpointer;

typedef struct _GVariant GVariant;
typedef struct _GClosure GClosure;
typedef struct _GCancellable GCancellable;
typedef struct _GAsyncResult GAsyncResult;
typedef struct _GObject GObject;
typedef void (*GCallback)(void);
typedef void (*GClosureNotify)(gpointer data, GClosure *closure);
typedef void (*GAsyncReadyCallback)(GObject *source_object, GAsyncResult *res, gpointer data);
typedef void (*GWeakNotify)(gpointer data, GObject *where_the_object_was);

typedef struct _GError GError;
typedef struct _GUnixFDList GUnixFDList;
typedef struct _WebKitWebExtension WebKitWebExtension;
typedef struct _WebKitWebPage WebKitWebPage;
typedef struct _WebKitFrame WebKitFrame;
typedef struct _WebKitUserMessage WebKitUserMessage;
typedef struct _WebKitScriptWorld WebKitScriptWorld;
typedef struct _JSCContext JSCContext;
typedef struct _JSCValue JSCValue;

// glib/gvariant.h
extern GVariant *g_variant_new_uint32(guint32 value);
extern GVariant *g_variant_new_uint64(guint64 value);
extern const gchar *g_variant_get_type_string(GVariant *value);
extern GVariant *g_variant_get_child_value(GVariant *value, gsize index_);
extern const gchar *g_variant_get_string(GVariant *value, gsize *length);
extern guint64 g_variant_get_uint64(GVariant *value);
extern void g_variant_unref(GVariant *value);

// gobject/gobject.h
// Parenthesised: GObject's header also defines it as a macro.
extern gpointer (g_object_ref)(gpointer object);
extern void g_object_unref(gpointer object);
extern void g_free(gpointer mem);
extern void g_object_weak_ref(GObject *object, GWeakNotify notify, gpointer data);
extern void g_object_weak_unref(GObject *object, GWeakNotify notify, gpointer data);

// gio/gunixfdlist.h
extern gint g_unix_fd_list_get_length(GUnixFDList *list);
extern gint g_unix_fd_list_get(GUnixFDList *list, gint index_, GError **error);

// gobject/gsignal.h (GConnectFlags is an enumeration: unsigned int)
extern gulong g_signal_connect_data(gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data,
                                    GClosureNotify destroy_data, unsigned int connect_flags);

// webkit/WebKitUserMessage.h
extern WebKitUserMessage *webkit_user_message_new(const char *name, GVariant *parameters);
extern const char *webkit_user_message_get_name(WebKitUserMessage *message);
extern GVariant *webkit_user_message_get_parameters(WebKitUserMessage *message);
extern GUnixFDList *webkit_user_message_get_fd_list(WebKitUserMessage *message);
extern void webkit_user_message_send_reply(WebKitUserMessage *message, WebKitUserMessage *reply);

// webkit/WebKitFrame.h
extern JSCContext *webkit_frame_get_js_context(WebKitFrame *frame);
extern JSCContext *webkit_frame_get_js_context_for_script_world(WebKitFrame *frame, WebKitScriptWorld *world);
extern gboolean webkit_frame_is_main_frame(WebKitFrame *frame);

// webkit/WebKitScriptWorld.h
extern WebKitScriptWorld *webkit_script_world_get_default(void);
extern WebKitScriptWorld *webkit_script_world_new_with_name(const char *name);

// jsc/JSCContext.h, jsc/JSCValue.h (JSCTypedArrayType is an enumeration: unsigned int)
#define KS_JSC_TYPED_ARRAY_UINT8 5u
extern JSCValue *jsc_context_get_value(JSCContext *context, const char *name);
extern void jsc_context_set_value(JSCContext *context, const char *name, JSCValue *value);
extern JSCValue *jsc_context_evaluate(JSCContext *context, const char *code, gssize length);
extern void jsc_context_clear_exception(JSCContext *context);
extern JSCValue *jsc_value_object_get_property(JSCValue *value, const char *name);
extern gboolean jsc_value_is_function(JSCValue *value);
extern gboolean jsc_value_is_string(JSCValue *value);
extern char *jsc_value_to_string(JSCValue *value);
extern gboolean jsc_value_is_object(JSCValue *value);
extern gboolean jsc_value_is_typed_array(JSCValue *value);
extern unsigned int jsc_value_typed_array_get_type(JSCValue *value);
extern JSCValue *jsc_value_new_null(JSCContext *context);
extern JSCValue *jsc_value_function_callv(JSCValue *value, guint n_parameters, JSCValue **parameters);
extern JSCValue *jsc_value_new_string(JSCContext *context, const char *string);
extern JSCValue *jsc_value_new_typed_array(JSCContext *context, unsigned int type, gsize length);
extern gpointer jsc_value_typed_array_get_data(JSCValue *value, gsize *length);
extern WebKitUserMessage *webkit_user_message_new_with_fd_list(const char *name, GVariant *parameters, GUnixFDList *fd_list);
extern GUnixFDList *g_unix_fd_list_new_from_array(const gint *fds, gint n_fds);

// webkit/WebKitWebPage.h, webkit/WebKitWebExtension.h
extern WebKitFrame *webkit_web_page_get_main_frame(WebKitWebPage *web_page);
extern guint64 webkit_web_page_get_id(WebKitWebPage *web_page);
extern WebKitWebPage *webkit_web_extension_get_page(WebKitWebExtension *extension, guint64 page_id);
extern void webkit_web_page_send_message_to_view(WebKitWebPage *web_page, WebKitUserMessage *message, GCancellable *cancellable,
                                                 GAsyncReadyCallback callback, gpointer user_data);

// webkit/WebKitWebExtension.h: the entry point WebKit's web process calls, exported by the extension.
__attribute__((visibility("default"))) void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension,
                                                                                          const GVariant *user_data);

#endif
