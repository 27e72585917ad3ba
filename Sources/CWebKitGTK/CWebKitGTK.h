// CWebKitGTK.h — the part of WebKitGTK 4.1, GTK 3, GLib and JavaScriptCoreGTK that the Linux host
// uses, declared here so the package builds with nothing but Debian's libwebkit2gtk-4.1-dev: no
// pkg-config file of its own, no header search paths, no flags. The module map links the system
// libraries by name.
//
// Every type is an incomplete struct under the tag the real headers use, every enumeration is its
// C type (`unsigned int`) with the values the host needs as KS_ constants, and every function is
// declared as WebKitGTK declares it. Tests/Declarations/check.c compiles this file after the real
// headers: a prototype that differs, a typedef that is not the same type, or a constant with another
// value fails the test command.
#ifndef KEYSTONE_CWEBKITGTK_H
#define KEYSTONE_CWEBKITGTK_H

#include <stddef.h>
#include <stdio.h>

// The names Keystone's web-process extension and the host say to each other: one description, which
// the extension includes too.
#include "../KeystoneGTK/WebProcessExtension/keystone-extension-wire.h"

// MARK: GLib (glib/gtypes.h, glibconfig.h, glib/gmain.h, glib/gbytes.h, glib/gerror.h)

typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef unsigned int guint32;
typedef gint gboolean;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef unsigned long gulong;
typedef __SIZE_TYPE__ gsize;
typedef signed long gssize;
typedef signed long gint64;
typedef guint32 GQuark;
typedef gboolean (*GSourceFunc)(gpointer user_data);
typedef void (*GDestroyNotify)(gpointer data);

typedef struct _GMainLoop GMainLoop;
typedef struct _GMainContext GMainContext;
typedef struct _GBytes GBytes;
typedef struct _GError GError;

#define KS_G_PRIORITY_DEFAULT 0

extern void g_free(gpointer mem);
extern GMainLoop *g_main_loop_new(GMainContext *context, gboolean is_running);
extern void g_main_loop_run(GMainLoop *loop);
extern void g_main_loop_quit(GMainLoop *loop);
extern void g_main_loop_unref(GMainLoop *loop);
extern guint g_idle_add_full(gint priority, GSourceFunc function, gpointer data, GDestroyNotify notify);
extern guint g_timeout_add_full(gint priority, guint interval, GSourceFunc function, gpointer data, GDestroyNotify notify);
extern gsize g_bytes_get_size(GBytes *bytes);
extern gconstpointer g_bytes_get_data(GBytes *bytes, gsize *size);
extern void g_bytes_unref(GBytes *bytes);
extern void g_error_free(GError *error);

/// GError's public fields (glib/gerror.h), read through this mirror because the struct stays
/// incomplete here; check.c compares the offsets.
struct ks_error_fields {
    GQuark domain;
    gint code;
    gchar *message;
};

/// The message of `error`.
static inline const char *ks_error_message(GError *error) { return ((struct ks_error_fields *)(void *)error)->message; }
/// The code of `error`.
static inline gint ks_error_code(GError *error) { return ((struct ks_error_fields *)(void *)error)->code; }

// MARK: GLib file descriptor sources (glib/gmain.h, glib-unix.h)

typedef gboolean (*KSUnixFDSourceFunc)(gint fd, unsigned int condition, gpointer user_data);
#define KS_G_IO_IN 1u
extern guint g_unix_fd_add_full(gint priority, gint fd, unsigned int condition, KSUnixFDSourceFunc function, gpointer user_data,
                                GDestroyNotify notify);

// MARK: libdispatch's main queue, as a run loop drives it (the toolchain's libdispatch exports these
// for Foundation's run loop; dispatch/private.h declares them; not in the public headers). On Linux
// the handle is an eventfd the queue writes to when it has work.

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

// MARK: GObject (gobject/gobject.h, gobject/gsignal.h, gobject/gclosure.h)

typedef struct _GObject GObject;
typedef struct _GClosure GClosure;
typedef void (*GCallback)(void);
typedef void (*GClosureNotify)(gpointer data, GClosure *closure);

#define KS_G_SIGNAL_MATCH_DATA (1u << 4)

extern void g_object_unref(gpointer object);
extern gpointer(g_object_ref)(gpointer object);
extern gpointer(g_object_ref_sink)(gpointer object);
extern gulong g_signal_connect_data(gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data,
                                    GClosureNotify destroy_data, unsigned int connect_flags);
extern guint g_signal_handlers_disconnect_matched(gpointer instance, unsigned int mask, guint signal_id, GQuark detail, GClosure *closure,
                                                  gpointer func, gpointer data);

// MARK: GIO (gio/giotypes.h, gio/ginputstream.h, gio/gmemoryinputstream.h, gio/gunixinputstream.h)

typedef struct _GCancellable GCancellable;
typedef struct _GAsyncResult GAsyncResult;
typedef struct _GInputStream GInputStream;
typedef void (*GAsyncReadyCallback)(GObject *source_object, GAsyncResult *res, gpointer data);

extern gssize g_input_stream_read(GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable, GError **error);
extern GInputStream *g_memory_input_stream_new_from_bytes(GBytes *bytes);
// gio/gunixinputstream.h
extern GInputStream *g_unix_input_stream_new(gint fd, gboolean close_fd);
extern GBytes *g_bytes_new(gconstpointer data, gsize size);

// MARK: libsoup 3 (libsoup/soup-message-headers.h)

typedef struct _SoupMessageHeaders SoupMessageHeaders;

#define KS_SOUP_MESSAGE_HEADERS_RESPONSE 1u

extern SoupMessageHeaders *soup_message_headers_new(unsigned int type);
extern void soup_message_headers_append(SoupMessageHeaders *hdrs, const char *name, const char *value);
extern const char *soup_message_headers_get_one(SoupMessageHeaders *hdrs, const char *name);

// MARK: GTK 3 (gtk/gtkmain.h, gtk/gtkwindow.h, gtk/gtkwidget.h, gtk/gtkcontainer.h)

typedef struct _GtkWidget GtkWidget;
typedef struct _GtkWindow GtkWindow;
typedef struct _GtkContainer GtkContainer;

#define KS_GTK_WINDOW_TOPLEVEL 0u

extern void gtk_init(int *argc, char ***argv);
extern GtkWidget *gtk_window_new(unsigned int type);
extern void gtk_window_set_title(GtkWindow *window, const gchar *title);
extern void gtk_window_set_default_size(GtkWindow *window, gint width, gint height);
extern void gtk_container_add(GtkContainer *container, GtkWidget *widget);
extern void gtk_widget_show_all(GtkWidget *widget);
extern void gtk_widget_destroy(GtkWidget *widget);

// MARK: JavaScriptCoreGTK 4.1 (jsc/JSCValue.h, jsc/JSCContext.h)

typedef struct _JSCValue JSCValue;
typedef struct _JSCContext JSCContext;

extern JSCContext *jsc_value_get_context(JSCValue *value);
extern JSCValue *jsc_value_new_string(JSCContext *context, const char *string);
extern JSCValue *jsc_value_new_null(JSCContext *context);
extern gboolean jsc_value_is_undefined(JSCValue *value);
extern gboolean jsc_value_is_string(JSCValue *value);
extern char *jsc_value_to_string(JSCValue *value);
extern GBytes *jsc_value_to_string_as_bytes(JSCValue *value);
extern char *jsc_value_to_json(JSCValue *value, guint indent);

// MARK: WebKitGTK 4.1 (webkit2/WebKitWebView.h, WebKitUserContentManager.h, WebKitUserContent.h,
// WebKitScriptDialog.h, WebKitPolicyDecision.h, WebKitNavigationPolicyDecision.h,
// WebKitNavigationAction.h, WebKitURIRequest.h, WebKitJavascriptResult.h)

typedef struct _WebKitWebView WebKitWebView;
typedef struct _WebKitUserContentManager WebKitUserContentManager;
typedef struct _WebKitUserScript WebKitUserScript;
typedef struct _WebKitScriptDialog WebKitScriptDialog;
typedef struct _WebKitScriptMessageReply WebKitScriptMessageReply;
typedef struct _WebKitPolicyDecision WebKitPolicyDecision;
typedef struct _WebKitNavigationPolicyDecision WebKitNavigationPolicyDecision;
typedef struct _WebKitNavigationAction WebKitNavigationAction;
typedef struct _WebKitURIRequest WebKitURIRequest;
typedef struct _WebKitJavascriptResult WebKitJavascriptResult;

#define KS_WEBKIT_LOAD_COMMITTED 2u
#define KS_WEBKIT_SCRIPT_DIALOG_ALERT 0u
#define KS_WEBKIT_SCRIPT_DIALOG_CONFIRM 1u
#define KS_WEBKIT_SCRIPT_DIALOG_PROMPT 2u
#define KS_WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES 0u
#define KS_WEBKIT_USER_CONTENT_INJECT_TOP_FRAME 1u
#define KS_WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START 0u
#define KS_WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION 0u
#define KS_WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT 1u
#define KS_WEBKIT_WEB_PROCESS_TERMINATED_BY_API 2u

extern GtkWidget *webkit_web_view_new_with_user_content_manager(WebKitUserContentManager *user_content_manager);
extern WebKitUserContentManager *webkit_web_view_get_user_content_manager(WebKitWebView *web_view);
extern void webkit_web_view_load_uri(WebKitWebView *web_view, const gchar *uri);
extern void webkit_web_view_load_html(WebKitWebView *web_view, const gchar *content, const gchar *base_uri);
extern void webkit_web_view_reload(WebKitWebView *web_view);
extern void webkit_web_view_terminate_web_process(WebKitWebView *web_view);
extern void webkit_web_view_evaluate_javascript(WebKitWebView *web_view, const char *script, gssize length, const char *world_name,
                                                const char *source_uri, GCancellable *cancellable, GAsyncReadyCallback callback,
                                                gpointer user_data);
extern JSCValue *webkit_web_view_evaluate_javascript_finish(WebKitWebView *web_view, GAsyncResult *result, GError **error);

extern WebKitUserContentManager *webkit_user_content_manager_new(void);
extern void webkit_user_content_manager_add_script(WebKitUserContentManager *manager, WebKitUserScript *script);
extern void webkit_user_content_manager_remove_all_scripts(WebKitUserContentManager *manager);
extern gboolean webkit_user_content_manager_register_script_message_handler(WebKitUserContentManager *manager, const gchar *name);
extern gboolean webkit_user_content_manager_register_script_message_handler_with_reply(WebKitUserContentManager *manager, const char *name,
                                                                                       const char *world_name);
extern void webkit_user_content_manager_unregister_script_message_handler(WebKitUserContentManager *manager, const gchar *name);
extern void webkit_user_content_manager_unregister_script_message_handler_in_world(WebKitUserContentManager *manager, const gchar *name,
                                                                                   const gchar *world_name);
extern WebKitUserScript *webkit_user_script_new(const gchar *source, unsigned int injected_frames, unsigned int injection_time,
                                                const gchar *const *allow_list, const gchar *const *block_list);
extern WebKitUserScript *webkit_user_script_new_for_world(const gchar *source, unsigned int injected_frames, unsigned int injection_time,
                                                          const gchar *world_name, const gchar *const *allow_list,
                                                          const gchar *const *block_list);
extern void webkit_user_script_unref(WebKitUserScript *user_script);

extern unsigned int webkit_script_dialog_get_dialog_type(WebKitScriptDialog *dialog);
extern const gchar *webkit_script_dialog_get_message(WebKitScriptDialog *dialog);
extern void webkit_script_dialog_confirm_set_confirmed(WebKitScriptDialog *dialog, gboolean confirmed);
extern const gchar *webkit_script_dialog_prompt_get_default_text(WebKitScriptDialog *dialog);
extern void webkit_script_dialog_prompt_set_text(WebKitScriptDialog *dialog, const gchar *text);
extern void webkit_script_message_reply_return_value(WebKitScriptMessageReply *script_message_reply, JSCValue *reply_value);
extern JSCValue *webkit_javascript_result_get_js_value(WebKitJavascriptResult *js_result);

// The byte channel: a custom URI scheme (WebKitWebContext.h, WebKitSecurityManager.h,
// WebKitURISchemeRequest.h, WebKitURISchemeResponse.h).
typedef struct _WebKitWebContext WebKitWebContext;
typedef struct _WebKitSecurityManager WebKitSecurityManager;
typedef struct _WebKitURISchemeRequest WebKitURISchemeRequest;
typedef struct _WebKitURISchemeResponse WebKitURISchemeResponse;
typedef void (*WebKitURISchemeRequestCallback)(WebKitURISchemeRequest *request, gpointer user_data);

extern WebKitWebContext *webkit_web_view_get_context(WebKitWebView *web_view);
extern void webkit_web_context_register_uri_scheme(WebKitWebContext *context, const gchar *scheme, WebKitURISchemeRequestCallback callback,
                                                   gpointer user_data, GDestroyNotify user_data_destroy_func);
extern WebKitSecurityManager *webkit_web_context_get_security_manager(WebKitWebContext *context);
extern void webkit_security_manager_register_uri_scheme_as_secure(WebKitSecurityManager *security_manager, const gchar *scheme);
extern void webkit_security_manager_register_uri_scheme_as_cors_enabled(WebKitSecurityManager *security_manager, const gchar *scheme);
extern const gchar *webkit_uri_scheme_request_get_uri(WebKitURISchemeRequest *request);
extern WebKitWebView *webkit_uri_scheme_request_get_web_view(WebKitURISchemeRequest *request);
extern const gchar *webkit_uri_scheme_request_get_http_method(WebKitURISchemeRequest *request);
extern SoupMessageHeaders *webkit_uri_scheme_request_get_http_headers(WebKitURISchemeRequest *request);
extern GInputStream *webkit_uri_scheme_request_get_http_body(WebKitURISchemeRequest *request);
extern void webkit_uri_scheme_request_finish_with_response(WebKitURISchemeRequest *request, WebKitURISchemeResponse *response);
extern WebKitURISchemeResponse *webkit_uri_scheme_response_new(GInputStream *input_stream, gint64 stream_length);
extern void webkit_uri_scheme_response_set_status(WebKitURISchemeResponse *response, guint status_code, const gchar *reason_phrase);
extern void webkit_uri_scheme_response_set_content_type(WebKitURISchemeResponse *response, const gchar *content_type);
extern void webkit_uri_scheme_response_set_http_headers(WebKitURISchemeResponse *response, SoupMessageHeaders *headers);

// The web-process extension: where WebKit finds it, and its messages to the web view
// (WebKitWebContext.h, WebKitUserMessage.h; glib/gvariant.h).
typedef struct _GVariant GVariant;
typedef struct _WebKitUserMessage WebKitUserMessage;

typedef struct _GUnixFDList GUnixFDList;
typedef unsigned long guint64;

extern void webkit_web_context_set_web_extensions_directory(WebKitWebContext *context, const gchar *directory);
extern void webkit_web_context_set_web_extensions_initialization_user_data(WebKitWebContext *context, GVariant *user_data);
extern WebKitUserMessage *webkit_user_message_new(const char *name, GVariant *parameters);
extern WebKitUserMessage *webkit_user_message_new_with_fd_list(const char *name, GVariant *parameters, GUnixFDList *fd_list);
extern void webkit_web_view_send_message_to_page(WebKitWebView *web_view, WebKitUserMessage *message, GCancellable *cancellable,
                                                 GAsyncReadyCallback callback, gpointer user_data);
extern WebKitUserMessage *webkit_web_view_send_message_to_page_finish(WebKitWebView *web_view, GAsyncResult *result, GError **error);
extern GUnixFDList *g_unix_fd_list_new_from_array(const gint *fds, gint n_fds);
extern GVariant *g_variant_new_string(const gchar *string);
extern GVariant *g_variant_new_uint64(guint64 value);
extern GVariant *g_variant_new_tuple(GVariant *const *children, gsize n_children);

// Sealed shared memory for the bytes the extension copies (sys/mman.h, fcntl.h with _GNU_SOURCE):
// glibc declares memfd_create only for GNU sources, which Swift's Glibc module is not built as.
extern int memfd_create(const char *name, unsigned int flags);
#define KS_MFD_CLOEXEC 0x0001U
#define KS_MFD_ALLOW_SEALING 0x0002U
#define KS_F_ADD_SEALS 1033
#define KS_F_SEAL_SEAL 0x0001
#define KS_F_SEAL_SHRINK 0x0002
#define KS_F_SEAL_GROW 0x0004
#define KS_F_SEAL_WRITE 0x0008
#define KS_F_GET_SEALS 1034
extern GUnixFDList *webkit_user_message_get_fd_list(WebKitUserMessage *message);
extern gint g_unix_fd_list_get_length(GUnixFDList *list);
extern gint g_unix_fd_list_get(GUnixFDList *list, gint index_, GError **error);
extern const char *webkit_user_message_get_name(WebKitUserMessage *message);
extern GVariant *webkit_user_message_get_parameters(WebKitUserMessage *message);
extern const gchar *g_variant_get_type_string(GVariant *value);
extern guint32 g_variant_get_uint32(GVariant *value);
extern guint64 g_variant_get_uint64(GVariant *value);
extern GVariant *g_variant_new_uint32(guint32 value);
extern GVariant *g_variant_get_child_value(GVariant *value, gsize index_);
extern const gchar *g_variant_get_string(GVariant *value, gsize *length);
extern void g_variant_unref(GVariant *value);
extern GVariant *g_variant_new_strv(const gchar *const *strv, gssize length);

// A web context of its own, and a web view in it with a user content manager (the shim's web
// views: Tests/WebKitShim, whose web processes load the shim's extension).
typedef gsize GType;
extern WebKitWebContext *webkit_web_context_new(void);
extern GType webkit_web_view_get_type(void);
extern gpointer g_object_new(GType object_type, const gchar *first_property_name, ...);
static inline GtkWidget *ks_web_view_new_in_context(WebKitWebContext *context, WebKitUserContentManager *manager) {
    return (GtkWidget *)g_object_new(webkit_web_view_get_type(), "web-context", context, "user-content-manager", manager, (void *)0);
}

extern void webkit_policy_decision_ignore(WebKitPolicyDecision *decision);
extern WebKitNavigationAction *webkit_navigation_policy_decision_get_navigation_action(WebKitNavigationPolicyDecision *decision);
extern WebKitURIRequest *webkit_navigation_action_get_request(WebKitNavigationAction *navigation);
extern const gchar *webkit_uri_request_get_uri(WebKitURIRequest *request);

// MARK: What Swift cannot write itself: GObject casts and typed signal connections. Each wrapper
// does one thing; no logic lives here. The casts are plain pointer casts: every pointer handed to
// them is the type the cast names (GTK's checked casts would only add a warning).

typedef gboolean (*KSScriptDialogHandler)(WebKitWebView *view, WebKitScriptDialog *dialog, gpointer data);
typedef void (*KSLoadChangedHandler)(WebKitWebView *view, unsigned int event, gpointer data);
typedef gboolean (*KSDecidePolicyHandler)(WebKitWebView *view, WebKitPolicyDecision *decision, unsigned int type, gpointer data);
typedef void (*KSWebProcessTerminatedHandler)(WebKitWebView *view, unsigned int reason, gpointer data);
typedef gboolean (*KSMessageWithReplyHandler)(WebKitUserContentManager *manager, JSCValue *value, WebKitScriptMessageReply *reply,
                                              gpointer data);
typedef void (*KSMessageHandler)(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data);
typedef gboolean (*KSUserMessageHandler)(WebKitWebView *view, WebKitUserMessage *message, gpointer data);

static inline WebKitWebView *ks_web_view(GtkWidget *widget) { return (WebKitWebView *)(void *)widget; }
static inline GtkContainer *ks_container(GtkWidget *widget) { return (GtkContainer *)(void *)widget; }
static inline GtkWindow *ks_window(GtkWidget *widget) { return (GtkWindow *)(void *)widget; }

static inline gulong ks_connect(gpointer instance, const char *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, 0);
}

static inline gulong ks_on_script_dialog(WebKitWebView *view, KSScriptDialogHandler handler, gpointer data) {
    return ks_connect(view, "script-dialog", (GCallback)handler, data);
}

static inline gulong ks_on_load_changed(WebKitWebView *view, KSLoadChangedHandler handler, gpointer data) {
    return ks_connect(view, "load-changed", (GCallback)handler, data);
}

static inline gulong ks_on_decide_policy(WebKitWebView *view, KSDecidePolicyHandler handler, gpointer data) {
    return ks_connect(view, "decide-policy", (GCallback)handler, data);
}

/// The URI a navigation decision is about; NULL for other decisions.
static inline const char *ks_navigation_decision_uri(WebKitPolicyDecision *decision, unsigned int type) {
    if (type != KS_WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) return NULL;
    WebKitNavigationAction *action =
        webkit_navigation_policy_decision_get_navigation_action((WebKitNavigationPolicyDecision *)(void *)decision);
    return webkit_uri_request_get_uri(webkit_navigation_action_get_request(action));
}

static inline gulong ks_on_user_message(WebKitWebView *view, KSUserMessageHandler handler, gpointer data) {
    return ks_connect(view, "user-message-received", (GCallback)handler, data);
}

static inline gulong ks_on_web_process_terminated(WebKitWebView *view, KSWebProcessTerminatedHandler handler, gpointer data) {
    return ks_connect(view, "web-process-terminated", (GCallback)handler, data);
}

/// Registers the script message handler `name` with a reply (window.webkit.messageHandlers.NAME)
/// in the script world `world` (NULL: the page's own world).
static inline gulong ks_on_message_with_reply(WebKitUserContentManager *manager, const char *name, const char *world,
                                              KSMessageWithReplyHandler handler, gpointer data) {
    char signal[256];
    snprintf(signal, sizeof signal, "script-message-with-reply-received::%s", name);
    gulong id = ks_connect(manager, signal, (GCallback)handler, data);
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, name, world);
    return id;
}

/// Registers the script message handler `name` without a reply, in the page's own world.
static inline gulong ks_on_message(WebKitUserContentManager *manager, const char *name, KSMessageHandler handler, gpointer data) {
    char signal[256];
    snprintf(signal, sizeof signal, "script-message-received::%s", name);
    gulong id = ks_connect(manager, signal, (GCallback)handler, data);
    webkit_user_content_manager_register_script_message_handler(manager, name);
    return id;
}

/// The text of a script message's value (free it with g_free).
static inline char *ks_message_text(WebKitJavascriptResult *result) { return jsc_value_to_string(webkit_javascript_result_get_js_value(result)); }

/// Disconnects every handler connected with `data` on `instance`.
static inline void ks_disconnect_all(gpointer instance, gpointer data) {
    g_signal_handlers_disconnect_matched(instance, KS_G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, data);
}

// MARK: Used only by the test suite's Cocoa WebKit shim (Tests/WebKitShim), which runs the Apple
// host over WebKitGTK: navigation events, responses, asynchronous dialogs and replies, and the
// suite's https certificate (WebKitWebView.h, WebKitPolicyDecision.h, WebKitResponsePolicyDecision.h,
// WebKitURIResponse.h, WebKitScriptDialog.h, WebKitUserContentManager.h, WebKitWebContext.h,
// WebKitURISchemeRequest.h, jsc/JSCValue.h, gio/gtlscertificate.h, libsoup/soup-message-headers.h).

typedef struct _WebKitResponsePolicyDecision WebKitResponsePolicyDecision;
typedef struct _WebKitURIResponse WebKitURIResponse;
typedef struct _GTlsCertificate GTlsCertificate;
typedef void (*SoupMessageHeadersForeachFunc)(const char *name, const char *value, gpointer user_data);

#define KS_WEBKIT_LOAD_STARTED 0u
#define KS_WEBKIT_LOAD_REDIRECTED 1u
#define KS_WEBKIT_LOAD_FINISHED 3u
#define KS_WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION 1u
#define KS_WEBKIT_POLICY_DECISION_TYPE_RESPONSE 2u

extern const gchar *webkit_web_view_get_uri(WebKitWebView *web_view);
extern void webkit_policy_decision_use(WebKitPolicyDecision *decision);
extern void webkit_policy_decision_download(WebKitPolicyDecision *decision);
extern unsigned int webkit_navigation_action_get_navigation_type(WebKitNavigationAction *navigation);
extern const gchar *webkit_uri_request_get_http_method(WebKitURIRequest *request);
extern WebKitURIRequest *webkit_response_policy_decision_get_request(WebKitResponsePolicyDecision *decision);
extern WebKitURIResponse *webkit_response_policy_decision_get_response(WebKitResponsePolicyDecision *decision);
extern gboolean webkit_response_policy_decision_is_mime_type_supported(WebKitResponsePolicyDecision *decision);
extern gboolean webkit_response_policy_decision_is_main_frame_main_resource(WebKitResponsePolicyDecision *decision);
extern const gchar *webkit_uri_response_get_uri(WebKitURIResponse *response);
extern guint webkit_uri_response_get_status_code(WebKitURIResponse *response);
extern const gchar *webkit_uri_response_get_mime_type(WebKitURIResponse *response);
extern WebKitScriptDialog *webkit_script_dialog_ref(WebKitScriptDialog *dialog);
extern void webkit_script_dialog_unref(WebKitScriptDialog *dialog);
extern void webkit_script_dialog_close(WebKitScriptDialog *dialog);
extern WebKitScriptMessageReply *webkit_script_message_reply_ref(WebKitScriptMessageReply *script_message_reply);
extern void webkit_script_message_reply_unref(WebKitScriptMessageReply *script_message_reply);
extern void webkit_script_message_reply_return_error_message(WebKitScriptMessageReply *script_message_reply, const char *error_message);
extern void webkit_uri_scheme_request_finish_error(WebKitURISchemeRequest *request, GError *error);
extern void webkit_web_context_allow_tls_certificate_for_host(WebKitWebContext *context, GTlsCertificate *certificate, const gchar *host);
extern GTlsCertificate *g_tls_certificate_new_from_file(const gchar *file, GError **error);
extern GError *g_error_new_literal(GQuark domain, gint code, const gchar *message);
extern GQuark g_quark_from_string(const gchar *string);
extern JSCValue *jsc_value_new_undefined(JSCContext *context);
extern JSCValue *jsc_value_new_from_json(JSCContext *context, const char *json);
extern JSCValue *jsc_value_new_string_from_bytes(JSCContext *context, GBytes *bytes);
extern gboolean jsc_value_is_null(JSCValue *value);
extern gboolean jsc_value_is_array(JSCValue *value);
extern gboolean jsc_value_is_number(JSCValue *value);
extern gboolean jsc_value_is_boolean(JSCValue *value);
extern gboolean jsc_value_is_function(JSCValue *value);
extern double jsc_value_to_double(JSCValue *value);
extern gboolean jsc_value_to_boolean(JSCValue *value);
extern JSCValue *jsc_value_object_get_property_at_index(JSCValue *value, guint index);
extern void jsc_context_set_value(JSCContext *context, const char *name, JSCValue *value);
extern JSCValue *jsc_context_evaluate(JSCContext *context, const char *code, gssize length);
extern void soup_message_headers_foreach(SoupMessageHeaders *hdrs, SoupMessageHeadersForeachFunc func, gpointer user_data);

typedef gboolean (*KSLoadFailedHandler)(WebKitWebView *view, unsigned int event, const gchar *uri, GError *error, gpointer data);
typedef void (*KSCloseHandler)(WebKitWebView *view, gpointer data);
typedef GtkWidget *(*KSCreateHandler)(WebKitWebView *view, WebKitNavigationAction *action, gpointer data);

static inline gulong ks_on_load_failed(WebKitWebView *view, KSLoadFailedHandler handler, gpointer data) {
    return ks_connect(view, "load-failed", (GCallback)handler, data);
}

static inline gulong ks_on_close(WebKitWebView *view, KSCloseHandler handler, gpointer data) {
    return ks_connect(view, "close", (GCallback)handler, data);
}

static inline gulong ks_on_create(WebKitWebView *view, KSCreateHandler handler, gpointer data) {
    return ks_connect(view, "create", (GCallback)handler, data);
}

// MARK: Authentication (webkit/WebKitAuthenticationRequest.h, webkit/WebKitCredential.h)

typedef struct _WebKitAuthenticationRequest WebKitAuthenticationRequest;
typedef struct _WebKitCredential WebKitCredential;
#define KS_WEBKIT_AUTHENTICATION_SCHEME_HTTP_BASIC 2u
#define KS_WEBKIT_AUTHENTICATION_SCHEME_HTTP_DIGEST 3u
extern const gchar *webkit_authentication_request_get_host(WebKitAuthenticationRequest *request);
extern guint webkit_authentication_request_get_port(WebKitAuthenticationRequest *request);
extern const gchar *webkit_authentication_request_get_realm(WebKitAuthenticationRequest *request);
extern unsigned int webkit_authentication_request_get_scheme(WebKitAuthenticationRequest *request);
extern gboolean webkit_authentication_request_is_retry(WebKitAuthenticationRequest *request);
extern void webkit_authentication_request_authenticate(WebKitAuthenticationRequest *request, WebKitCredential *credential);
extern void webkit_authentication_request_cancel(WebKitAuthenticationRequest *request);
extern WebKitCredential *webkit_credential_new(const gchar *username, const gchar *password, unsigned int persistence);
extern void webkit_credential_free(WebKitCredential *credential);
typedef gboolean (*KSAuthenticateHandler)(WebKitWebView *view, WebKitAuthenticationRequest *request, gpointer data);

/// A load asks for credentials: `handler` returns whether it answers the request (now or later).
static inline gulong ks_on_authenticate(WebKitWebView *view, KSAuthenticateHandler handler, gpointer data) {
    return ks_connect(view, "authenticate", (GCallback)handler, data);
}

// MARK: File inputs (webkit/WebKitFileChooserRequest.h)

typedef struct _WebKitFileChooserRequest WebKitFileChooserRequest;
extern gboolean webkit_file_chooser_request_get_select_multiple(WebKitFileChooserRequest *request);
extern void webkit_file_chooser_request_select_files(WebKitFileChooserRequest *request, const gchar *const *files);
extern void webkit_file_chooser_request_cancel(WebKitFileChooserRequest *request);
typedef gboolean (*KSFileChooserHandler)(WebKitWebView *view, WebKitFileChooserRequest *request, gpointer data);

/// A file input asks for files: `handler` returns whether it answers the request (now or later).
static inline gulong ks_on_run_file_chooser(WebKitWebView *view, KSFileChooserHandler handler, gpointer data) {
    return ks_connect(view, "run-file-chooser", (GCallback)handler, data);
}

/// The navigation action of a navigation or new-window decision.
static inline WebKitNavigationAction *ks_navigation_action(WebKitPolicyDecision *decision) {
    return webkit_navigation_policy_decision_get_navigation_action((WebKitNavigationPolicyDecision *)(void *)decision);
}

/// The web view an evaluation's callback reports as its source object.
static inline WebKitWebView *ks_web_view_of(GObject *object) { return (WebKitWebView *)(void *)object; }

/// A response decision as its own type.
static inline WebKitResponsePolicyDecision *ks_response_decision(WebKitPolicyDecision *decision) {
    return (WebKitResponsePolicyDecision *)(void *)decision;
}

#endif
