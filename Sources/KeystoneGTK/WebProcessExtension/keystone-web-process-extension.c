// keystone-web-process-extension.c — Keystone's extension of WebKitGTK's web process. WebKit loads
// it into every web process of a host's web context (WebKitGTKHost+WebProcessExtension.swift puts it
// in a directory of its own). It announces itself to the web view of each page it sees, which is how
// the host learns, per web process, that the extension runs there; a web process without it (the
// file could not be loaded, or another context's) says nothing, and the host works as without it.
//
// It also names each subframe document the host's isolated world runs in, and evaluates the host's
// scripts there: the host delivers results and its own calls to a subframe through it.
//
// The extension is as trusted as the host's isolated world, no more: the UI process checks what it
// says as it checks what the isolated world says.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keystone-web-process-extension.h"
#include "keystone-frame-list.h"
#include "keystone-extension-wire.h"

static gboolean message_received(WebKitWebPage *page, WebKitUserMessage *message, gpointer data);

// MARK: Subframe documents

// The names of the messages and of the page world's globals: keystone-extension-wire.h.

static WebKitWebExtension *the_extension;
// The host's isolated world, by the name the host gave (its user data): created here, before any page
// of the web process, WebKit gives the host's scripts of that name this same world.
static WebKitScriptWorld *host_world;
// The last number given to a document: the process's id above its 31 low bits, so that no two web
// processes name a document alike, and every number stays below 2^53 (a process id is below 2^22),
// which a page reads exactly as a JavaScript number.
static guint64 last_document;

// The subframe documents the host's isolated world runs in: each one's frame (held weakly), its
// page's id and its number. One per frame: a frame's next document replaces it.
static KeystoneFrameList documents;

// The document numbered `number` of the page `page`, while it is its frame's document.
static KeystoneFrameEntry *document_numbered(guint64 number, WebKitWebPage *page) {
    return keystone_frame_list_numbered(&documents, number, webkit_web_page_get_id(page));
}

// Tells the page's web view that the document `number` has gone.
static void tell_gone(guint64 page_id, guint64 number) {
    WebKitWebPage *page = webkit_web_extension_get_page(the_extension, page_id);
    if (!page) return;
    webkit_web_page_send_message_to_view(page, webkit_user_message_new(KEYSTONE_FRAME_GONE_MESSAGE, g_variant_new_uint64(number)), 0, 0, 0);
}

// Forgets `document` and tells its web view it has gone.
static void forget(KeystoneFrameEntry *document) {
    guint64 page_id = document->page, number = document->number;
    keystone_frame_list_remove(&documents, document);
    tell_gone(page_id, number);
}

// A frame has been destroyed (removed from its page, or its page closed).
static void frame_destroyed(gpointer data, GObject *frame) {
    (void)data;
    KeystoneFrameEntry *document = keystone_frame_list_find(&documents, (WebKitFrame *)frame);
    if (document) forget(document);
}

// The page world of `frame` was cleared: a new document begins there, so its earlier one has gone.
// WebKit clears the page world before any other world of the same document.
static void page_world_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame, gpointer data) {
    (void)world;
    (void)page;
    (void)data;
    KeystoneFrameEntry *document = keystone_frame_list_find(&documents, frame);
    if (!document) return;
    g_object_weak_unref((GObject *)frame, frame_destroyed, 0);
    forget(document);
}

// The host's isolated world of a subframe was cleared: its document is the frame's new one, and gets
// the next number, which the isolated world reads before any of its scripts runs.
static void host_world_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame, gpointer data) {
    (void)data;
    if (webkit_frame_is_main_frame(frame)) return;
    KeystoneFrameEntry *document = keystone_frame_list_find(&documents, frame);
    if (document) {
        tell_gone(document->page, document->number);
    } else {
        document = keystone_frame_list_add(&documents, frame);
        if (!document) return;
        g_object_weak_ref((GObject *)frame, frame_destroyed, 0);
    }
    document->page = webkit_web_page_get_id(page);
    document->number = ++last_document;
    keystone_set_number_global(frame, world, KEYSTONE_DOCUMENT_GLOBAL, document->number);
}

// Whether the host's world in `frame`'s current document holds the number `number`: the world's
// globals are the document's own, out of the page's reach, so a next document (one where no script
// may run included) holds no number, or another.
static int holds_number(WebKitFrame *frame, guint64 number) {
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)number);
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, host_world);
    if (!context) return 0;
    JSCValue *value = jsc_context_get_value(context, KEYSTONE_DOCUMENT_GLOBAL);
    int same = 0;
    if (value && jsc_value_is_string(value)) {
        char *text = jsc_value_to_string(value);
        same = text && strcmp(text, digits) == 0;
        g_free(text);
    }
    if (value) g_object_unref(value);
    g_object_unref(context);
    return same;
}

// Runs the host's script in the subframe document its message names, while that document is its
// frame's, in the document's page world; the reply says it is done either way.
static void evaluate(WebKitWebPage *page, WebKitUserMessage *message) {
    GVariant *parameters = webkit_user_message_get_parameters(message);
    if (parameters && strcmp(g_variant_get_type_string(parameters), "(ts)") == 0) {
        GVariant *number = g_variant_get_child_value(parameters, 0), *script = g_variant_get_child_value(parameters, 1);
        guint64 wanted = g_variant_get_uint64(number);
        KeystoneFrameEntry *document = document_numbered(wanted, page);
        // Still the frame's document? A next one where no script may run never clears the host's
        // world, so the frame may hold another document under the same number: its own world's
        // globals say. Asking may begin the next document, which ends this one.
        if (document && !holds_number(document->frame, wanted)) {
            document = document_numbered(wanted, page);
            if (document) {
                g_object_weak_unref((GObject *)document->frame, frame_destroyed, 0);
                forget(document);
            }
            document = 0;
        }
        if (document) {
            gsize length = 0;
            const char *code = g_variant_get_string(script, &length);
            // The script may end the document, or make frames: nothing of `document` is read after.
            JSCContext *context = webkit_frame_get_js_context(document->frame);
            JSCValue *result = jsc_context_evaluate(context, code, (gssize)length);
            if (result) g_object_unref(result);
            jsc_context_clear_exception(context);
            g_object_unref(context);
        }
        g_variant_unref(number);
        g_variant_unref(script);
    }
    webkit_user_message_send_reply(message, webkit_user_message_new(KEYSTONE_EVALUATE_MESSAGE, 0));
}

// A page of the web process: its web view hears that the extension runs here. The message and its
// parameters are floating, so sending them consumes them.
static void page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
    (void)extension;
    (void)data;
    g_signal_connect_data(page, "user-message-received", (GCallback)message_received, 0, 0, 0);
    WebKitUserMessage *announcement = webkit_user_message_new(KEYSTONE_EXTENSION_MESSAGE, g_variant_new_uint32(KEYSTONE_EXTENSION_VERSION));
    webkit_web_page_send_message_to_view(page, announcement, 0, 0, 0);
}

// Swift's bytes for the page (KEYSTONE_BYTES_MESSAGE) come in shared memory sealed against
// shrinking. The extension answers once it has copied them out, and the host may write that memory
// again. The most bytes one message carries: BridgeLimits.transferBytes can be no larger than this.
#define KEYSTONE_BYTES_LIMIT (1ULL << 31)

// The host's region, mapped once and kept while the host lends the same file: mapping it anew for
// each transfer would fault in every page again. The file only grows, so a longer transfer maps it
// again.
static struct {
    dev_t device;
    ino_t inode;
    void *base;
    size_t length;
} mapping = {0, 0, 0, 0};

// `size` bytes of `fd`, mapped for reading: the region's kept mapping when `fd` is the same file.
static const void *map_bytes(int fd, const struct stat *status, guint64 size) {
    if (mapping.base && mapping.device == status->st_dev && mapping.inode == status->st_ino && mapping.length >= size) return mapping.base;
    if (mapping.base) munmap(mapping.base, mapping.length);
    mapping.base = 0;
    void *base = mmap(0, (size_t)status->st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return 0;
    mapping.device = status->st_dev;
    mapping.inode = status->st_ino;
    mapping.base = base;
    mapping.length = (size_t)status->st_size;
    return base;
}

// The bytes of `fd` in `into` (the page's own Uint8Array, when it has one that holds them) or a
// new Uint8Array of `context` (memory JSC allocated: a typed array over memory of another's would
// be refused by the web process's gigacage); NULL when the memory is not what the message says:
// sealed so that it cannot shrink under the mapping, and holding at least `size` bytes. The host's
// region (which it may write again, so not sealed against writing) stays mapped; a file of one
// transfer's own is let go at once. The array returned is the caller's to release.
static JSCValue *copy_bytes(JSCContext *context, int fd, guint64 size, JSCValue *into) {
    struct stat status;
    int seals = fcntl(fd, F_GET_SEALS);
    if (size > KEYSTONE_BYTES_LIMIT || seals < 0 || !(seals & F_SEAL_SHRINK) || fstat(fd, &status) != 0 || (guint64)status.st_size < size) return 0;
    gsize length = 0;
    void *target = into ? jsc_value_typed_array_get_data(into, &length) : 0;
    JSCValue *array = 0;
    if (target && length >= size) {
        array = into;
        g_object_ref(into);
    } else {
        array = jsc_value_new_typed_array(context, KS_JSC_TYPED_ARRAY_UINT8, (gsize)size);
        target = array ? jsc_value_typed_array_get_data(array, &length) : 0;
    }
    if (!array || size == 0) return array;
    int is_region = !(seals & F_SEAL_WRITE);
    const void *source = is_region ? map_bytes(fd, &status, size) : mmap(0, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
    if (source == MAP_FAILED) source = 0;
    if (source && target && length >= size) memcpy(target, source, (size_t)size);
    if (source && !is_region) munmap((void *)source, (size_t)size);
    if (!source || !target || length < size) {
        g_object_unref(array);
        return 0;
    }
    return array;
}

// The relay's `_keystoneHost`, the object the page's world reaches the host through: it cannot be
// replaced by a page script. NULL in a document without it (another page by now).
static JSCValue *relay_of(JSCContext *context) {
    JSCValue *host = jsc_context_get_value(context, KEYSTONE_RELAY_GLOBAL);
    if (host && jsc_value_is_object(host)) return host;
    if (host) g_object_unref(host);
    return 0;
}

// Calls the relay's `name` with `request` and, unless NULL, `value`; its result, or NULL.
static JSCValue *call_relay(JSCContext *context, JSCValue *host, const char *name, const char *request, JSCValue *value) {
    JSCValue *function = jsc_value_object_get_property(host, name), *result = 0;
    if (function && jsc_value_is_function(function)) {
        JSCValue *arguments[2] = {jsc_value_new_string(context, request), value};
        result = jsc_value_function_callv(function, value ? 2 : 1, arguments);
        g_object_unref(arguments[0]);
    }
    if (function) g_object_unref(function);
    return result;
}

// The page's own buffer for `request`, when the relay has one (`_keystoneHost.target`): a
// Uint8Array, or NULL.
static JSCValue *page_buffer(JSCContext *context, JSCValue *host, const char *request) {
    JSCValue *into = host ? call_relay(context, host, KEYSTONE_RELAY_TARGET, request, 0) : 0;
    if (into && jsc_value_is_typed_array(into) && jsc_value_typed_array_get_type(into) == KS_JSC_TYPED_ARRAY_UINT8) return into;
    if (into) g_object_unref(into);
    return 0;
}

// Hands `bytes` (or null, when they could not be read) to the frame's relay in the page's world: `_keystoneHost.received(request, bytes)`, which resolves the request it made.
static void hand_over(JSCContext *context, JSCValue *host, const char *request, JSCValue *bytes) {
    if (!host) return;
    JSCValue *value = bytes ? bytes : jsc_value_new_null(context);
    JSCValue *result = call_relay(context, host, KEYSTONE_RELAY_RECEIVED, request, value);
    if (result) g_object_unref(result);
    if (!bytes) g_object_unref(value);
}

// The host asks for a piece of the page's bytes: `(stt)`, the relay's request, the subframe document
// whose relay offered it (0: the main frame's) and the most bytes the host takes. The relay's
// `_keystoneHost.outgoing(request)` gives them, a Uint8Array the engine vouches for; the reply holds
// their count (`t`) and one file descriptor of shared memory holding them, sealed against any
// change, or no descriptor when there are none to give (another document by now, too many, or no
// memory). The host asked only once it had admitted the document: nothing is offered unasked.

static void upload(WebKitWebPage *page, WebKitUserMessage *message) {
    GVariant *parameters = webkit_user_message_get_parameters(message);
    int fd = -1;
    gsize length = 0;
    if (parameters && strcmp(g_variant_get_type_string(parameters), "(stt)") == 0) {
        GVariant *request = g_variant_get_child_value(parameters, 0), *number = g_variant_get_child_value(parameters, 1),
                 *limit = g_variant_get_child_value(parameters, 2);
        guint64 document_number = g_variant_get_uint64(number);
        KeystoneFrameEntry *document = document_number ? document_numbered(document_number, page) : 0;
        WebKitFrame *frame = document_number ? (document ? document->frame : 0) : webkit_web_page_get_main_frame(page);
        JSCContext *context = frame ? webkit_frame_get_js_context(frame) : 0;
        JSCValue *host = context ? relay_of(context) : 0;
        JSCValue *bytes = host ? call_relay(context, host, KEYSTONE_RELAY_OUTGOING, g_variant_get_string(request, 0), 0) : 0;
        void *data = 0;
        if (bytes && jsc_value_is_typed_array(bytes) && jsc_value_typed_array_get_type(bytes) == KS_JSC_TYPED_ARRAY_UINT8) {
            data = jsc_value_typed_array_get_data(bytes, &length);
        }
        if (data && length <= g_variant_get_uint64(limit) && length <= KEYSTONE_BYTES_LIMIT) {
            fd = memfd_create("keystone-upload", MFD_CLOEXEC | MFD_ALLOW_SEALING);
            int written = fd >= 0 && ftruncate(fd, (off_t)length) == 0;
            void *target = written && length ? mmap(0, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : 0;
            if (target == MAP_FAILED) written = 0;
            if (written && length) {
                memcpy(target, data, length);
                munmap(target, length);
            }
            if (!written || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
                if (fd >= 0) close(fd);
                fd = -1;
            }
        }
        if (bytes) g_object_unref(bytes);
        if (host) g_object_unref(host);
        if (context) g_object_unref(context);
        g_variant_unref(request);
        g_variant_unref(number);
        g_variant_unref(limit);
    }
    GUnixFDList *list = fd >= 0 ? g_unix_fd_list_new_from_array(&fd, 1) : 0;
    WebKitUserMessage *reply = webkit_user_message_new_with_fd_list(KEYSTONE_UPLOAD_MESSAGE, g_variant_new_uint64(fd >= 0 ? length : 0), list);
    if (list) g_object_unref(list);
    webkit_user_message_send_reply(message, reply);
}

// A message from the page's web view: the host's script for a subframe document, Swift's bytes for
// a request of a relay, or its request for a piece of the page's. Any other message is left to others.
static gboolean message_received(WebKitWebPage *page, WebKitUserMessage *message, gpointer data) {
    (void)data;
    const char *name = webkit_user_message_get_name(message);
    if (name && strcmp(name, KEYSTONE_EVALUATE_MESSAGE) == 0) {
        evaluate(page, message);
        return 1;
    }
    if (name && strcmp(name, KEYSTONE_UPLOAD_MESSAGE) == 0) {
        upload(page, message);
        return 1;
    }
    if (!name || strcmp(name, KEYSTONE_BYTES_MESSAGE) != 0) return 0;
    GVariant *parameters = webkit_user_message_get_parameters(message);
    GUnixFDList *descriptors = webkit_user_message_get_fd_list(message);
    WebKitFrame *frame = 0;
    if (parameters && strcmp(g_variant_get_type_string(parameters), "(stt)") == 0) {
        GVariant *number = g_variant_get_child_value(parameters, 2);
        guint64 document_number = g_variant_get_uint64(number);
        g_variant_unref(number);
        KeystoneFrameEntry *document = document_number ? document_numbered(document_number, page) : 0;
        frame = document_number ? (document ? document->frame : 0) : webkit_web_page_get_main_frame(page);
    }
    // A document that has gone takes nothing: its relay has gone with it.
    if (!frame) {
        webkit_user_message_send_reply(message, webkit_user_message_new(KEYSTONE_BYTES_MESSAGE, 0));
        return 1;
    }
    GVariant *request = g_variant_get_child_value(parameters, 0), *size = g_variant_get_child_value(parameters, 1);
    int fd = descriptors && g_unix_fd_list_get_length(descriptors) == 1 ? g_unix_fd_list_get(descriptors, 0, 0) : -1;
    const char *named = g_variant_get_string(request, 0);
    JSCContext *context = webkit_frame_get_js_context(frame);
    JSCValue *host = relay_of(context);
    JSCValue *into = page_buffer(context, host, named);
    JSCValue *bytes = fd >= 0 ? copy_bytes(context, fd, g_variant_get_uint64(size), into) : 0;
    // The bytes are copied out: the host may write its region again.
    webkit_user_message_send_reply(message, webkit_user_message_new(KEYSTONE_BYTES_MESSAGE, 0));
    hand_over(context, host, named, bytes);
    if (bytes) g_object_unref(bytes);
    if (into) g_object_unref(into);
    if (host) g_object_unref(host);
    g_object_unref(context);
    if (fd >= 0) close(fd);
    g_variant_unref(request);
    g_variant_unref(size);
    return 1;
}

// WebKit's entry point. The user data is the name of the host's isolated world (`s`); without it
// the extension names no subframe documents.
void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension, const GVariant *user_data) {
    the_extension = extension;
    last_document = (guint64)getpid() << 31;
    GVariant *settings = (GVariant *)user_data;
    if (settings && strcmp(g_variant_get_type_string(settings), "s") == 0) {
        host_world = webkit_script_world_new_with_name(g_variant_get_string(settings, 0));
        g_signal_connect_data(host_world, "window-object-cleared", (GCallback)host_world_cleared, 0, 0, 0);
        g_signal_connect_data(webkit_script_world_get_default(), "window-object-cleared", (GCallback)page_world_cleared, 0, 0, 0);
    }
    g_signal_connect_data(extension, "page-created", (GCallback)page_created, 0, 0, 0);
}
