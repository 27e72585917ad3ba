// shim.h — what Swift cannot import from WebKitGTK directly: GObject casts and typed signal
// connections. Each wrapper does one thing; no logic lives here.
#ifndef KEYSTONE_CWEBKITGTK_SHIM_H
#define KEYSTONE_CWEBKITGTK_SHIM_H

#include <stdio.h>
#include <webkit2/webkit2.h>

typedef gboolean (*KSScriptDialogHandler)(WebKitWebView *view, WebKitScriptDialog *dialog, gpointer data);
typedef void (*KSLoadChangedHandler)(WebKitWebView *view, WebKitLoadEvent event, gpointer data);
typedef gboolean (*KSDecidePolicyHandler)(WebKitWebView *view, WebKitPolicyDecision *decision, WebKitPolicyDecisionType type, gpointer data);
typedef void (*KSWebProcessTerminatedHandler)(WebKitWebView *view, WebKitWebProcessTerminationReason reason, gpointer data);
typedef gboolean (*KSMessageWithReplyHandler)(WebKitUserContentManager *manager, JSCValue *value,
                                              WebKitScriptMessageReply *reply, gpointer data);

static inline WebKitWebView *ks_web_view(GtkWidget *widget) { return WEBKIT_WEB_VIEW(widget); }
static inline GtkContainer *ks_container(GtkWidget *widget) { return GTK_CONTAINER(widget); }
static inline GtkWindow *ks_window(GtkWidget *widget) { return GTK_WINDOW(widget); }

static inline gulong ks_on_script_dialog(WebKitWebView *view, KSScriptDialogHandler handler, gpointer data) {
    return g_signal_connect(view, "script-dialog", G_CALLBACK(handler), data);
}

static inline gulong ks_on_load_changed(WebKitWebView *view, KSLoadChangedHandler handler, gpointer data) {
    return g_signal_connect(view, "load-changed", G_CALLBACK(handler), data);
}

static inline gulong ks_on_decide_policy(WebKitWebView *view, KSDecidePolicyHandler handler, gpointer data) {
    return g_signal_connect(view, "decide-policy", G_CALLBACK(handler), data);
}

/// The URI a navigation decision is about; NULL for other decisions.
static inline const char *ks_navigation_decision_uri(WebKitPolicyDecision *decision, WebKitPolicyDecisionType type) {
    if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) return NULL;
    WebKitNavigationAction *action = webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
    return webkit_uri_request_get_uri(webkit_navigation_action_get_request(action));
}

static inline gulong ks_on_web_process_terminated(WebKitWebView *view, KSWebProcessTerminatedHandler handler, gpointer data) {
    return g_signal_connect(view, "web-process-terminated", G_CALLBACK(handler), data);
}

/// Registers the script message handler `name` with a reply (window.webkit.messageHandlers.NAME)
/// in the script world `world` (NULL: the page's own world).
static inline gulong ks_on_message_with_reply(WebKitUserContentManager *manager, const char *name, const char *world,
                                              KSMessageWithReplyHandler handler, gpointer data) {
    char signal[256];
    snprintf(signal, sizeof signal, "script-message-with-reply-received::%s", name);
    gulong id = g_signal_connect(manager, signal, G_CALLBACK(handler), data);
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, name, world);
    return id;
}

typedef void (*KSMessageHandler)(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer data);

/// Registers the script message handler `name` without a reply, in the page's own world.
static inline gulong ks_on_message(WebKitUserContentManager *manager, const char *name, KSMessageHandler handler, gpointer data) {
    char signal[256];
    snprintf(signal, sizeof signal, "script-message-received::%s", name);
    gulong id = g_signal_connect(manager, signal, G_CALLBACK(handler), data);
    webkit_user_content_manager_register_script_message_handler(manager, name);
    return id;
}

/// The text of a script message's value (free it with g_free).
static inline char *ks_message_text(WebKitJavascriptResult *result) {
    return jsc_value_to_string(webkit_javascript_result_get_js_value(result));
}

/// Disconnects every handler connected with `data` on `instance`.
static inline void ks_disconnect_all(gpointer instance, gpointer data) {
    g_signal_handlers_disconnect_matched(instance, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, data);
}


#endif
