// wkshim-web-process-extension.c — the shim's extension of WebKitGTK's web process, loaded into the
// web processes of the shim's own web context (WKWebView.swift). WebKit's Cocoa API names the frame
// of every dialog and script message (WKFrameInfo) and evaluates in a frame it is given; WebKitGTK's
// UI-process API does neither. This extension knows the frames:
//
// - each frame's page world gets the frame's identifier (WebKitGTK's, as WebKit's own) in a global
//   at document start, which the shim's frame script reads and removes before any page script runs;
// - it evaluates a script in the frame of a given identifier, in a given world, and answers with
//   the walked value or the exception, or that no such frame is there any more.
//
// A frame keeps its identifier across its documents, as a WKFrameInfo names a frame, not a document.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wkshim-web-process-extension.h"

#define WKSHIM_FRAME_GLOBAL "__wkshimFrame"
// `(tsss)`: the frame's identifier, the world's name ("" for the page world), the script, and the
// walk that turns its value into tagged JSON (JSValues.swift). The reply is `(us)`: 0 and the walk's
// text; 1 and the exception as "LINE\nCOLUMN\nSOURCE\nMESSAGE"; 2 and "" for a frame that is not
// there; 3 and "" for a value with no property-list form.
#define WKSHIM_EVALUATE_MESSAGE "wkshim.evaluate"

// The named worlds of the shim's web views when the web process started (the user data, `as`),
// made here first: WebKit gives the scripts of the same name these same worlds, and so a script
// evaluated in one by name reaches them. A world named later is a world of its own here.
static WebKitScriptWorld **worlds;
static char **world_names;
static gsize world_count;

static WebKitScriptWorld *world_named(const char *name) {
    for (gsize i = 0; i < world_count; i++)
        if (strcmp(world_names[i], name) == 0) return worlds[i];
    return 0;
}

// The frames whose page world has been cleared, each with its page's id and its identifier.
static KeystoneFrameList frames;

static void frame_destroyed(gpointer data, GObject *gone) {
    (void)data;
    KeystoneFrameEntry *entry = keystone_frame_list_find(&frames, (WebKitFrame *)gone);
    if (entry) keystone_frame_list_remove(&frames, entry);
}

// A new document's page world: the frame is known from now on, and its scripts can read its name.
static void page_world_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame, gpointer data) {
    (void)data;
    if (!keystone_frame_list_find(&frames, frame)) {
        KeystoneFrameEntry *entry = keystone_frame_list_add(&frames, frame);
        if (!entry) return;
        *entry = (KeystoneFrameEntry){frame, webkit_web_page_get_id(page), webkit_frame_get_id(frame)};
        g_object_weak_ref((GObject *)frame, frame_destroyed, 0);
    }
    keystone_set_number_global(frame, world, WKSHIM_FRAME_GLOBAL, webkit_frame_get_id(frame));
}

static void reply(WebKitUserMessage *message, guint32 status, const char *text) {
    GVariant *parts[2] = {g_variant_new_uint32(status), g_variant_new_string(text)};
    webkit_user_message_send_reply(message, webkit_user_message_new(WKSHIM_EVALUATE_MESSAGE, g_variant_new_tuple(parts, 2)));
}

static void evaluate(WebKitWebPage *page, WebKitUserMessage *message) {
    GVariant *parameters = webkit_user_message_get_parameters(message);
    if (!parameters || strcmp(g_variant_get_type_string(parameters), "(tsss)") != 0) return reply(message, 2, "");
    GVariant *parts[4];
    for (gsize i = 0; i < 4; i++) parts[i] = g_variant_get_child_value(parameters, i);
    guint64 identifier = g_variant_get_uint64(parts[0]), page_id = webkit_web_page_get_id(page);
    const char *world_name = g_variant_get_string(parts[1], 0);
    gsize length = 0;
    const char *code = g_variant_get_string(parts[2], &length);
    const char *walk = g_variant_get_string(parts[3], 0);
    KeystoneFrameEntry *entry = keystone_frame_list_numbered(&frames, identifier, page_id);
    WebKitFrame *frame = entry ? entry->frame : 0;
    if (!frame) {
        reply(message, 2, "");
    } else {
        WebKitScriptWorld *known = world_name[0] ? world_named(world_name) : webkit_script_world_get_default();
        WebKitScriptWorld *world = known ? known : webkit_script_world_new_with_name(world_name);
        JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
        if (!known) g_object_unref(world);
        JSCValue *result = jsc_context_evaluate(context, code, (gssize)length);
        JSCException *exception = jsc_context_get_exception(context);
        if (exception) {
            const char *source = jsc_exception_get_source_uri(exception), *text = jsc_exception_get_message(exception);
            size_t size = strlen(text ? text : "") + strlen(source ? source : "") + 64;
            char *described = malloc(size);
            if (described) {
                snprintf(described, size, "%u\n%u\n%s\n%s", jsc_exception_get_line_number(exception), jsc_exception_get_column_number(exception),
                         source ? source : "", text ? text : "");
                reply(message, 1, described);
                free(described);
            } else {
                reply(message, 1, "0\n0\n\n");
            }
            jsc_context_clear_exception(context);
        } else {
            JSCValue *walker = jsc_context_evaluate(context, walk, -1);
            JSCValue *walked = walker && result && jsc_value_is_function(walker) ? jsc_value_function_callv(walker, 1, &result) : 0;
            if (walked && jsc_value_is_string(walked)) {
                char *text = jsc_value_to_string(walked);
                reply(message, 0, text ? text : "");
                g_free(text);
            } else {
                reply(message, 3, "");
            }
            jsc_context_clear_exception(context);
            if (walked) g_object_unref(walked);
            if (walker) g_object_unref(walker);
        }
        if (result) g_object_unref(result);
        g_object_unref(context);
    }
    for (gsize i = 0; i < 4; i++) g_variant_unref(parts[i]);
}

static gboolean message_received(WebKitWebPage *page, WebKitUserMessage *message, gpointer data) {
    (void)data;
    const char *name = webkit_user_message_get_name(message);
    if (!name || strcmp(name, WKSHIM_EVALUATE_MESSAGE) != 0) return 0;
    evaluate(page, message);
    return 1;
}

static void page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
    (void)extension;
    (void)data;
    g_signal_connect_data(page, "user-message-received", (GCallback)message_received, 0, 0, 0);
}

void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension, const GVariant *user_data) {
    GVariant *names = (GVariant *)user_data;
    if (names && strcmp(g_variant_get_type_string(names), "as") == 0) {
        gsize count = g_variant_n_children(names);
        worlds = calloc(count ? count : 1, sizeof *worlds);
        world_names = calloc(count ? count : 1, sizeof *world_names);
        for (gsize i = 0; worlds && world_names && i < count; i++) {
            GVariant *name = g_variant_get_child_value(names, i);
            world_names[world_count] = strdup(g_variant_get_string(name, 0));
            g_variant_unref(name);
            if (!world_names[world_count]) break;
            worlds[world_count] = webkit_script_world_new_with_name(world_names[world_count]);
            world_count++;
        }
    }
    g_signal_connect_data(webkit_script_world_get_default(), "window-object-cleared", (GCallback)page_world_cleared, 0, 0, 0);
    g_signal_connect_data(extension, "page-created", (GCallback)page_created, 0, 0, 0);
}
