// floor.c — the raw WebKitGTK floor: the same transports a bridge uses, with nothing else, for
// scripts/bench.sh to measure Keystone against in the same run.
//
// The page (floor.html) reaches this program three ways, as Keystone's pages reach the host:
//  - prompt(text, value): answered with `value`, in the dialog itself;
//  - webkit.messageHandlers.floor.postMessage(text): a message with a reply, answered with `text`;
//  - webkit.messageHandlers.floorAsync.postMessage(text): a message in; the answer goes out as an
//    evaluated script, `__floorResult(text)`;
//  - webkit.messageHandlers.floorChain.postMessage(text): a message in, a call of the page out
//    (`__floorCall(text)`), whose handler answers with prompt("answer", value), and that value out
//    as `__floorResult(value)`: native calling the page in the middle of the page's call.
// It prints what the page posts to webkit.messageHandlers.report, and exits when the page posts
// "done" (or after the timeout, with status 2).
//
// Build: cc -O2 floor.c $(pkg-config --cflags --libs webkit2gtk-4.1)
// Run:   xvfb-run -a ./floor PAGE.html
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webkit2/webkit2.h>

static int status = 2;

/// Evaluates `function(digits)` in the page; the page sends digits only, and nothing else is run.
static void call_page(WebKitWebView *view, const char *function, const char *digits) {
    if (!digits || !*digits || digits[strspn(digits, "0123456789")] != '\0') return;
    char *script = g_strdup_printf("%s(%s)", function, digits);
    webkit_web_view_evaluate_javascript(view, script, -1, NULL, NULL, NULL, NULL, NULL);
    g_free(script);
}

static gboolean on_dialog(WebKitWebView *view, WebKitScriptDialog *dialog, gpointer data) {
    (void)data;
    if (webkit_script_dialog_get_dialog_type(dialog) != WEBKIT_SCRIPT_DIALOG_PROMPT) return FALSE;
    const char *value = webkit_script_dialog_prompt_get_default_text(dialog);
    webkit_script_dialog_prompt_set_text(dialog, value ? value : "");
    if (strcmp(webkit_script_dialog_get_message(dialog), "answer") == 0) call_page(view, "__floorResult", value);
    return TRUE;
}

static gboolean on_floor(WebKitUserContentManager *manager, JSCValue *value, WebKitScriptMessageReply *reply, gpointer data) {
    (void)manager;
    (void)data;
    char *text = jsc_value_to_string(value);
    JSCValue *answer = jsc_value_new_string(jsc_value_get_context(value), text);
    webkit_script_message_reply_return_value(reply, answer);
    g_object_unref(answer);
    g_free(text);
    return TRUE;
}

/// The text of a message: webkit2gtk-4.1's "script-message-received" hands over a
/// WebKitJavascriptResult (the reply signal hands over the JSCValue itself).
static char *message_text(WebKitJavascriptResult *result) {
    return jsc_value_to_string(webkit_javascript_result_get_js_value(result));
}

static void on_floor_async(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer view) {
    (void)manager;
    char *text = message_text(result);
    call_page(WEBKIT_WEB_VIEW(view), "__floorResult", text);
    g_free(text);
}

static void on_floor_chain(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer view) {
    (void)manager;
    char *text = message_text(result);
    call_page(WEBKIT_WEB_VIEW(view), "__floorCall", text);
    g_free(text);
}

static void on_report(WebKitUserContentManager *manager, WebKitJavascriptResult *result, gpointer loop) {
    (void)manager;
    char *text = message_text(result);
    if (strcmp(text, "done") == 0) {
        status = 0;
        g_main_loop_quit(loop);
    } else {
        printf("%s\n", text);
        fflush(stdout);
    }
    g_free(text);
}

static gboolean on_timeout(gpointer loop) {
    fprintf(stderr, "floor: timed out\n");
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: floor PAGE.html [TIMEOUT-SECONDS]\n");
        return 1;
    }
    gtk_init(&argc, &argv);
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    WebKitUserContentManager *manager = webkit_user_content_manager_new();
    GtkWidget *view = webkit_web_view_new_with_user_content_manager(manager);

    g_signal_connect(view, "script-dialog", G_CALLBACK(on_dialog), NULL);
    g_signal_connect(manager, "script-message-with-reply-received::floor", G_CALLBACK(on_floor), NULL);
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, "floor", NULL);
    g_signal_connect(manager, "script-message-received::floorAsync", G_CALLBACK(on_floor_async), view);
    webkit_user_content_manager_register_script_message_handler(manager, "floorAsync");
    g_signal_connect(manager, "script-message-received::floorChain", G_CALLBACK(on_floor_chain), view);
    webkit_user_content_manager_register_script_message_handler(manager, "floorChain");
    g_signal_connect(manager, "script-message-received::report", G_CALLBACK(on_report), loop);
    webkit_user_content_manager_register_script_message_handler(manager, "report");

    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_default_size(GTK_WINDOW(window), 800, 600);
    gtk_container_add(GTK_CONTAINER(window), view);
    gtk_widget_show_all(window);

    char *path = realpath(argv[1], NULL);
    if (!path) {
        fprintf(stderr, "floor: no such page: %s\n", argv[1]);
        return 1;
    }
    char *uri = g_filename_to_uri(path, NULL, NULL);
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
    g_timeout_add_seconds(argc > 2 ? (guint)atoi(argv[2]) : 300, on_timeout, loop);
    g_main_loop_run(loop);

    g_free(uri);
    free(path);
    gtk_widget_destroy(window);
    g_object_unref(manager);
    g_main_loop_unref(loop);
    return status;
}
