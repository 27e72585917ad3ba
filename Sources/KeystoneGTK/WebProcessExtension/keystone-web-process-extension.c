// keystone-web-process-extension.c — Keystone's extension of WebKitGTK's web process. WebKit loads
// it into every web process of a host's web context (WebKitGTKHost+WebProcessExtension.swift puts it
// in a directory of its own). It announces itself to the web view of each page it sees, which is how
// the host learns, per web process, that the extension runs there; a web process without it (the
// file could not be loaded, or another context's) says nothing, and the host works as without it.
//
// The extension is as trusted as the host's isolated world, no more: the UI process checks what it
// says as it checks what the isolated world says.
#include "keystone-web-process-extension.h"

// The name of the extension's announcement and the version of what it speaks: the host answers an
// announcement of another version as it would no announcement.
#define KEYSTONE_EXTENSION_MESSAGE "keystone.extension"
#define KEYSTONE_EXTENSION_VERSION 1

// A page of the web process: its web view hears that the extension runs here. The message and its
// parameters are floating, so sending them consumes them.
static void page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
    (void)extension;
    (void)data;
    WebKitUserMessage *announcement = webkit_user_message_new(KEYSTONE_EXTENSION_MESSAGE, g_variant_new_uint32(KEYSTONE_EXTENSION_VERSION));
    webkit_web_page_send_message_to_view(page, announcement, 0, 0, 0);
}

void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension, const GVariant *user_data) {
    (void)user_data;
    g_signal_connect_data(extension, "page-created", (GCallback)page_created, 0, 0, 0);
}
