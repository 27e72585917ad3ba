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
// For bytes (bytes.html), three more, the candidates for moving bytes as bytes:
//  - the custom scheme keystone-floor: (CORS-enabled, secure): a POST's body is read whole and its
//    byte count answered; a GET of /N answers N bytes, byte i = i % 251;
//  - a loopback HTTP listener on 127.0.0.1 (its port in the page's address, ?port=N), answering
//    as the scheme does;
//  - webkit.messageHandlers.floorText.postMessage(value): a base64 string in, its decoded byte
//    count out; a number N in, N such bytes out as base64 (today's JSON path, with nothing else);
//  - webkit.messageHandlers.floorBytes.postMessage(value): a typed array in, its byte count out;
//    a number N in, N such bytes out as a Uint8Array: the candidate of typed arrays in script
//    messages. WebKitGTK 2.50 turns a typed array into a plain object of numbered members both
//    ways, so its rows read WRONG (-1): it carries no bytes.
//  - webkit.messageHandlers.floorExtension.postMessage(N): N such bytes out through Keystone's
//    web-process extension (FLOOR_EXTENSIONS names the folder holding only it), the mechanism the
//    GTK host moves Swift's bytes to the page with;
// And one measurement (unread.html): a POST to keystone-floor:/unread is answered at once and its
// body never read; keystone-floor:/peak answers this process's peak resident size, so a page can
// show how much of a body the engine copies into the app before any of the app's code runs.
// `floor --broadcast N` is the raw floor of an event to N web views (below, run_broadcast).
// It prints what the page posts to webkit.messageHandlers.report, and exits when the page posts
// "done" (or after the timeout, with status 2). PAGE is a file, or an http(s) address.
//
// Build: cc -O2 floor.c $(pkg-config --cflags --libs webkit2gtk-4.1)
// Run:   xvfb-run -a ./floor PAGE.html
#define _GNU_SOURCE
#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
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

/// Writes `count` bytes, byte i = i % 251, at `bytes`: one period, then copies in doubling runs, as
/// Keystone's benchmark makes its bytes.
static void fill_pattern(guint8 *bytes, gsize count) {
    gsize period = count < 251 ? count : 251, filled = period;
    for (gsize i = 0; i < period; i++) bytes[i] = (guint8)i;
    while (filled < count) {
        gsize run = filled - filled % 251;
        if (run > count - filled) run = count - filled;
        memcpy(bytes + filled, bytes, run);
        filled += run;
    }
}

/// `count` bytes, byte i = i % 251, which a page checks; the caller frees them.
static guint8 *pattern(gsize count) {
    guint8 *bytes = g_malloc(count ? count : 1);
    fill_pattern(bytes, count);
    return bytes;
}

/// keystone-floor:…: a POST's body read whole (its byte count answered); a GET of /N, N bytes.
/// This process's peak resident size so far, in kB (VmHWM), or 0 where it cannot be read.
static gsize peak_kb(void) {
    gchar *status = NULL;
    gsize kb = 0;
    if (g_file_get_contents("/proc/self/status", &status, NULL, NULL)) {
        const char *line = strstr(status, "VmHWM:");
        if (line) kb = (gsize)g_ascii_strtoull(line + 6, NULL, 10);
        g_free(status);
    }
    return kb;
}

static void on_scheme(WebKitURISchemeRequest *request, gpointer data) {
    (void)data;
    const char *method = webkit_uri_scheme_request_get_http_method(request);
    const char *path = webkit_uri_scheme_request_get_path(request);
    GInputStream *stream;
    gsize length;
    if (path && (strcmp(path, "/unread") == 0 || strcmp(path, "/peak") == 0)) {
        // /unread: a POST refused at once, its body never read, as a ticket that does not exist is;
        // /peak: this process's peak resident size, which says whether the engine copied the
        // unread body into the app anyway.
        char *text = g_strdup_printf("%zu", strcmp(path, "/peak") == 0 ? peak_kb() : (gsize)0);
        length = strlen(text);
        stream = g_memory_input_stream_new_from_data(text, (gssize)length, g_free);
    } else if (method && strcmp(method, "POST") == 0) {
        GInputStream *body = webkit_uri_scheme_request_get_http_body(request);
        gsize total = 0;
        if (body) {
            guint8 *buffer = g_malloc(1 << 20);
            gssize got;
            while ((got = g_input_stream_read(body, buffer, 1 << 20, NULL, NULL)) > 0) total += (gsize)got;
            g_free(buffer);
            g_object_unref(body);
        }
        char *text = g_strdup_printf("%zu", total);
        length = strlen(text);
        stream = g_memory_input_stream_new_from_data(text, (gssize)length, g_free);
    } else {
        length = (gsize)g_ascii_strtoull(path + 1, NULL, 10);
        guint8 *bytes = pattern(length);
        stream = g_memory_input_stream_new_from_data(bytes, (gssize)length, g_free);
    }
    WebKitURISchemeResponse *response = webkit_uri_scheme_response_new(stream, (gint64)length);
    SoupMessageHeaders *headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE);
    soup_message_headers_append(headers, "Access-Control-Allow-Origin", "*");
    soup_message_headers_append(headers, "Content-Type", "application/octet-stream");
    webkit_uri_scheme_response_set_http_headers(response, headers);
    webkit_uri_scheme_request_finish_with_response(request, response);
    g_object_unref(response);
    g_object_unref(stream);
}

/// A loopback HTTP listener, the other candidate for bytes: the same answers as keystone-floor:
/// (a POST's body counted; a GET of /N, N bytes), over a socket on 127.0.0.1, one thread per
/// connection, keep-alive. Its port is handed to the page as `?port=N`.
static gboolean read_exactly(GInputStream *in, guint8 *buffer, gsize count) {
    gsize got = 0;
    return g_input_stream_read_all(in, buffer, count, &got, NULL, NULL) && got == count;
}

static gboolean on_connection(GThreadedSocketService *service, GSocketConnection *connection, GObject *source, gpointer data) {
    (void)service;
    (void)source;
    (void)data;
    GInputStream *in = g_io_stream_get_input_stream(G_IO_STREAM(connection));
    GOutputStream *out = g_io_stream_get_output_stream(G_IO_STREAM(connection));
    GDataInputStream *lines = g_data_input_stream_new(in);
    g_data_input_stream_set_newline_type(lines, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
    g_filter_input_stream_set_close_base_stream(G_FILTER_INPUT_STREAM(lines), FALSE);
    guint8 *buffer = g_malloc(1 << 20);
    for (;;) {
        char *request = g_data_input_stream_read_line(lines, NULL, NULL, NULL);
        if (!request) break;
        char method[16] = "", path[256] = "";
        sscanf(request, "%15s %255s", method, path);
        g_free(request);
        gsize length = 0;
        char *line;
        while ((line = g_data_input_stream_read_line(lines, NULL, NULL, NULL)) && *line) {
            if (g_ascii_strncasecmp(line, "content-length:", 15) == 0) length = (gsize)g_ascii_strtoull(line + 15, NULL, 10);
            g_free(line);
        }
        if (!line) break;
        g_free(line);
        const char *cors = "Access-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: GET, POST\r\n"
                           "Access-Control-Allow-Headers: *\r\n";
        if (strcmp(method, "OPTIONS") == 0) {
            char *head = g_strdup_printf("HTTP/1.1 204 No Content\r\n%sContent-Length: 0\r\n\r\n", cors);
            g_output_stream_write_all(out, head, strlen(head), NULL, NULL, NULL);
            g_free(head);
            continue;
        }
        if (strcmp(method, "POST") == 0) {
            gsize total = 0;
            while (total < length) {
                gsize piece = MIN(length - total, (gsize)1 << 20);
                if (!read_exactly(G_INPUT_STREAM(lines), buffer, piece)) break;
                total += piece;
            }
            char *text = g_strdup_printf("%zu", total);
            char *head = g_strdup_printf("HTTP/1.1 200 OK\r\n%sContent-Type: text/plain\r\nContent-Length: %zu\r\n\r\n%s", cors,
                                         strlen(text), text);
            g_output_stream_write_all(out, head, strlen(head), NULL, NULL, NULL);
            g_free(head);
            g_free(text);
        } else {
            gsize count = (gsize)g_ascii_strtoull(path + 1, NULL, 10);
            guint8 *bytes = pattern(count);
            char *head = g_strdup_printf("HTTP/1.1 200 OK\r\n%sContent-Type: application/octet-stream\r\nContent-Length: %zu\r\n\r\n",
                                         cors, count);
            g_output_stream_write_all(out, head, strlen(head), NULL, NULL, NULL);
            g_output_stream_write_all(out, bytes, count, NULL, NULL, NULL);
            g_free(head);
            g_free(bytes);
        }
    }
    g_free(buffer);
    g_object_unref(lines);
    return TRUE;
}

/// floorText: a base64 string in, its decoded byte count out; a number N in, N bytes as base64 out.
static gboolean on_floor_text(WebKitUserContentManager *manager, JSCValue *value, WebKitScriptMessageReply *reply, gpointer data) {
    (void)manager;
    (void)data;
    JSCContext *context = jsc_value_get_context(value);
    JSCValue *answer;
    if (jsc_value_is_string(value)) {
        char *text = jsc_value_to_string(value);
        gsize count = 0;
        g_free(g_base64_decode(text, &count));
        g_free(text);
        answer = jsc_value_new_number(context, (double)count);
    } else {
        gsize count = (gsize)jsc_value_to_double(value);
        guint8 *bytes = pattern(count);
        char *text = g_base64_encode(bytes, count);
        g_free(bytes);
        answer = jsc_value_new_string(context, text);
        g_free(text);
    }
    webkit_script_message_reply_return_value(reply, answer);
    g_object_unref(answer);
    return TRUE;
}

/// floorBytes: a typed array or buffer in, its byte count out; a number N in, N bytes out as a
/// Uint8Array (the engine's structured clone carries both without text).
static gboolean on_floor_bytes(WebKitUserContentManager *manager, JSCValue *value, WebKitScriptMessageReply *reply, gpointer data) {
    (void)manager;
    (void)data;
    JSCContext *context = jsc_value_get_context(value);
    JSCValue *answer;
    if (jsc_value_is_typed_array(value)) {
        answer = jsc_value_new_number(context, (double)jsc_value_typed_array_get_size(value));
    } else if (jsc_value_is_array_buffer(value)) {
        answer = jsc_value_new_number(context, (double)jsc_value_array_buffer_get_size(value));
    } else if (!jsc_value_is_number(value)) {
        answer = jsc_value_new_number(context, -1);  // not bytes by the time it got here
    } else {
        gsize count = (gsize)jsc_value_to_double(value), length = 0;
        answer = jsc_value_new_typed_array(context, JSC_TYPED_ARRAY_UINT8, count);
        guint8 *bytes = jsc_value_typed_array_get_data(answer, &length);
        for (gsize i = 0; i < length; i++) bytes[i] = (guint8)(i % 251);
    }
    webkit_script_message_reply_return_value(reply, answer);
    g_object_unref(answer);
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

/// floorExtension: a number N in, N bytes out through Keystone's web-process extension (loaded from
/// the folder FLOOR_EXTENSIONS names), by the same mechanism as the GTK host: made, then copied into one
/// shared memory file sealed against shrinking, reused while the extension has answered that it
/// copied the last bytes out, and sent with the request's number in a user message; the extension
/// copies them into a new Uint8Array and hands it to the page's `_keystoneHost.received`. The
/// page's message is answered at once.
static struct {
    int fd;
    guint8 *base;
    gsize capacity;
    gboolean lent;
} region = {-1, NULL, 0, FALSE};

static void on_extension_copied(GObject *view, GAsyncResult *result, gpointer data) {
    (void)data;
    WebKitUserMessage *answer = webkit_web_view_send_message_to_page_finish(WEBKIT_WEB_VIEW(view), result, NULL);
    if (answer) g_object_unref(answer);
    region.lent = FALSE;
}

static void on_extension_answered(GObject *view, GAsyncResult *result, gpointer data) {
    (void)data;
    WebKitUserMessage *answer = webkit_web_view_send_message_to_page_finish(WEBKIT_WEB_VIEW(view), result, NULL);
    if (answer) g_object_unref(answer);
}

static gboolean on_floor_extension(WebKitUserContentManager *manager, JSCValue *value, WebKitScriptMessageReply *reply, gpointer view) {
    (void)manager;
    static guint64 requests = 0;
    gsize count = (gsize)jsc_value_to_double(value);
    char request[24];
    snprintf(request, sizeof request, "%" G_GUINT64_FORMAT, ++requests);
    gint descriptor;
    gboolean lends = !region.lent;
    if (!lends) {
        // Lent still: a memory file of its own, sealed against every change, as the host does.
        descriptor = memfd_create("floor-bytes", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        ftruncate(descriptor, (off_t)count);
        guint8 *mapped = count ? mmap(NULL, count, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0) : NULL;
        if (mapped) {
            guint8 *bytes = pattern(count);
            memcpy(mapped, bytes, count);
            g_free(bytes);
            munmap(mapped, count);
        }
        fcntl(descriptor, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    } else {
        if (region.fd < 0) {
            region.fd = memfd_create("floor-bytes", MFD_CLOEXEC | MFD_ALLOW_SEALING);
            fcntl(region.fd, F_ADD_SEALS, F_SEAL_SHRINK);
        }
        if (count > region.capacity || !region.base) {
            gsize size = count < (1 << 20) ? (1 << 20) : (count + (1 << 20) - 1) & ~(gsize)((1 << 20) - 1);
            if (region.base) munmap(region.base, region.capacity);
            ftruncate(region.fd, (off_t)size);
            region.base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, region.fd, 0);
            region.capacity = size;
        }
        // The bytes are the program's before they move, as an app's are: made, then copied in.
        guint8 *bytes = pattern(count);
        memcpy(region.base, bytes, count);
        g_free(bytes);
        region.lent = TRUE;
        descriptor = dup(region.fd);
    }
    GUnixFDList *list = g_unix_fd_list_new_from_array(&descriptor, 1);
    // The request, the byte count, and the document (0: the main frame's), as the GTK host sends them.
    GVariant *parameters = g_variant_new("(stt)", request, (guint64)count, (guint64)0);
    webkit_web_view_send_message_to_page(WEBKIT_WEB_VIEW(view), webkit_user_message_new_with_fd_list("keystone.bytes", parameters, list), NULL,
                                         lends ? on_extension_copied : on_extension_answered, NULL);
    g_object_unref(list);
    JSCValue *sent = jsc_value_new_string(jsc_value_get_context(value), request);
    webkit_script_message_reply_return_value(reply, sent);
    g_object_unref(sent);
    return TRUE;
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

// --- floor --broadcast N: an event to N web views, the raw way ----------------------------------

// N web views, each a page whose `tick(round)` tells this program with prompt("heard", round), as
// Keystone's broadcast page tells Swift with a synchronous call. Rounds alternate between an
// evaluation of `tick(round)` in every web view and in the first alone; a round runs from the
// first evaluation until the last page's prompt. 400 rounds after 40 to warm up; the medians.
enum { BROADCAST_ROUNDS = 400, BROADCAST_WARMUP = 40, BROADCAST_MOST = 64 };
static struct {
    WebKitWebView *views[BROADCAST_MOST];
    int count, loaded, round, heard, expected, timed_all, timed_one;
    gint64 started;
    double all[BROADCAST_ROUNDS], one[BROADCAST_ROUNDS];
    GMainLoop *loop;
} broadcast;

static int compare_times(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static gboolean broadcast_round(gpointer unused) {
    (void)unused;
    if (broadcast.round >= BROADCAST_ROUNDS) {
        qsort(broadcast.all, (size_t)broadcast.timed_all, sizeof(double), compare_times);
        qsort(broadcast.one, (size_t)broadcast.timed_one, sizeof(double), compare_times);
        printf("floor: event to %d pages\t%.2f ms\tto one page %.2f ms\n", broadcast.count, broadcast.all[broadcast.timed_all / 2],
               broadcast.one[broadcast.timed_one / 2]);
        status = 0;
        g_main_loop_quit(broadcast.loop);
        return G_SOURCE_REMOVE;
    }
    char script[32];
    snprintf(script, sizeof script, "tick(%d)", broadcast.round);
    broadcast.heard = 0;
    broadcast.expected = broadcast.round % 2 == 0 ? broadcast.count : 1;
    broadcast.started = g_get_monotonic_time();
    for (int i = 0; i < broadcast.expected; i++) webkit_web_view_evaluate_javascript(broadcast.views[i], script, -1, NULL, NULL, NULL, NULL, NULL);
    return G_SOURCE_REMOVE;
}

static gboolean on_broadcast_dialog(WebKitWebView *view, WebKitScriptDialog *dialog, gpointer unused) {
    (void)view;
    (void)unused;
    if (webkit_script_dialog_get_dialog_type(dialog) != WEBKIT_SCRIPT_DIALOG_PROMPT) return FALSE;
    webkit_script_dialog_prompt_set_text(dialog, "true");
    if (++broadcast.heard == broadcast.expected) {
        double time = (double)(g_get_monotonic_time() - broadcast.started) / 1000.0;
        if (broadcast.round >= BROADCAST_WARMUP) {
            if (broadcast.round % 2 == 0) broadcast.all[broadcast.timed_all++] = time;
            else broadcast.one[broadcast.timed_one++] = time;
        }
        broadcast.round++;
        g_idle_add(broadcast_round, NULL);
    }
    return TRUE;
}

static void on_broadcast_load(WebKitWebView *view, WebKitLoadEvent event, gpointer unused) {
    (void)view;
    (void)unused;
    if (event == WEBKIT_LOAD_FINISHED && ++broadcast.loaded == broadcast.count) g_timeout_add(500, broadcast_round, NULL);
}

static gboolean on_timeout(gpointer loop);

static int run_broadcast(int count, int timeout) {
    broadcast.count = count;
    broadcast.loop = g_main_loop_new(NULL, FALSE);
    for (int i = 0; i < count; i++) {
        GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
        gtk_window_set_default_size(GTK_WINDOW(window), 320, 240);
        broadcast.views[i] = WEBKIT_WEB_VIEW(webkit_web_view_new());
        gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(broadcast.views[i]));
        g_signal_connect(broadcast.views[i], "script-dialog", G_CALLBACK(on_broadcast_dialog), NULL);
        g_signal_connect(broadcast.views[i], "load-changed", G_CALLBACK(on_broadcast_load), NULL);
        gtk_widget_show_all(window);
        webkit_web_view_load_html(broadcast.views[i], "<script>window.tick = function (round) { prompt('heard', String(round)); };</script>",
                                  "http://localhost/");
    }
    g_timeout_add_seconds((guint)timeout, on_timeout, broadcast.loop);
    g_main_loop_run(broadcast.loop);
    return status;
}

static gboolean on_timeout(gpointer loop) {
    fprintf(stderr, "floor: timed out\n");
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: floor PAGE.html [TIMEOUT-SECONDS] | floor --broadcast PAGES [TIMEOUT-SECONDS]\n");
        return 1;
    }
    gtk_init(&argc, &argv);
    if (strcmp(argv[1], "--broadcast") == 0) {
        int count = argc > 2 ? atoi(argv[2]) : 16;
        if (count < 1 || count > BROADCAST_MOST) {
            fprintf(stderr, "floor: --broadcast takes 1 to %d pages\n", BROADCAST_MOST);
            return 1;
        }
        return run_broadcast(count, argc > 3 ? atoi(argv[3]) : 120);
    }
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    WebKitWebContext *context = webkit_web_context_get_default();
    // Keystone's web-process extension, for the extension row: a folder holding only it.
    if (getenv("FLOOR_EXTENSIONS")) webkit_web_context_set_web_extensions_directory(context, getenv("FLOOR_EXTENSIONS"));
    webkit_web_context_register_uri_scheme(context, "keystone-floor", on_scheme, NULL, NULL);
    WebKitSecurityManager *security = webkit_web_context_get_security_manager(context);
    webkit_security_manager_register_uri_scheme_as_cors_enabled(security, "keystone-floor");
    webkit_security_manager_register_uri_scheme_as_secure(security, "keystone-floor");
    WebKitUserContentManager *manager = webkit_user_content_manager_new();
    GtkWidget *view = webkit_web_view_new_with_user_content_manager(manager);

    g_signal_connect(view, "script-dialog", G_CALLBACK(on_dialog), NULL);
    g_signal_connect(manager, "script-message-with-reply-received::floor", G_CALLBACK(on_floor), NULL);
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, "floor", NULL);
    g_signal_connect(manager, "script-message-with-reply-received::floorText", G_CALLBACK(on_floor_text), NULL);
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, "floorText", NULL);
    g_signal_connect(manager, "script-message-with-reply-received::floorBytes", G_CALLBACK(on_floor_bytes), NULL);
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, "floorBytes", NULL);
    g_signal_connect(manager, "script-message-with-reply-received::floorExtension", G_CALLBACK(on_floor_extension), view);
    webkit_user_content_manager_register_script_message_handler_with_reply(manager, "floorExtension", NULL);
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

    char *path = NULL;
    char *uri;
    if (g_str_has_prefix(argv[1], "http://") || g_str_has_prefix(argv[1], "https://")) {
        uri = g_strdup(argv[1]);
    } else {
        path = realpath(argv[1], NULL);
        if (!path) {
            fprintf(stderr, "floor: no such page: %s\n", argv[1]);
            return 1;
        }
        uri = g_filename_to_uri(path, NULL, NULL);
    }
    GSocketService *listener = g_threaded_socket_service_new(-1);
    GInetAddress *loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
    GSocketAddress *address = g_inet_socket_address_new(loopback, 0);
    GSocketAddress *bound = NULL;
    g_socket_listener_add_address(G_SOCKET_LISTENER(listener), address, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL, &bound, NULL);
    g_signal_connect(listener, "run", G_CALLBACK(on_connection), NULL);
    g_socket_service_start(listener);
    guint port = bound ? g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound)) : 0;
    char *addressed = g_strdup_printf("%s%sport=%u", uri, strchr(uri, '?') ? "&" : "?", port);
    g_free(uri);
    uri = addressed;
    webkit_web_view_load_uri(WEBKIT_WEB_VIEW(view), uri);
    g_timeout_add_seconds(argc > 2 ? (guint)atoi(argv[2]) : 300, on_timeout, loop);
    g_main_loop_run(loop);

    g_free(uri);
    free(path);
    gtk_widget_destroy(window);
    g_socket_service_stop(listener);
    g_clear_object(&bound);
    g_object_unref(address);
    g_object_unref(loopback);
    g_object_unref(listener);
    g_object_unref(manager);
    g_main_loop_unref(loop);
    return status;
}
