// keystone-frame-list.h — a list of a web process's frames, each with its page's id and a number,
// and a frame's number given to a world's scripts: what Keystone's web-process extension keeps of
// subframe documents, and the WebKit shim's extension (Tests/WebKitShim/WebProcessExtension) of
// frames. Included after keystone-web-process-extension.h.
#ifndef KEYSTONE_FRAME_LIST_H
#define KEYSTONE_FRAME_LIST_H

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    WebKitFrame *frame;  // held weakly by the list's owner
    guint64 page;
    guint64 number;
} KeystoneFrameEntry;

typedef struct {
    KeystoneFrameEntry *entries;
    size_t count, capacity;
} KeystoneFrameList;

static inline KeystoneFrameEntry *keystone_frame_list_find(KeystoneFrameList *list, WebKitFrame *frame) {
    for (size_t i = 0; i < list->count; i++)
        if (list->entries[i].frame == frame) return &list->entries[i];
    return 0;
}

// The entry numbered `number` of the page `page`.
static inline KeystoneFrameEntry *keystone_frame_list_numbered(KeystoneFrameList *list, guint64 number, guint64 page) {
    for (size_t i = 0; i < list->count; i++)
        if (list->entries[i].number == number && list->entries[i].page == page) return &list->entries[i];
    return 0;
}

// A new entry for `frame`, or NULL when the list cannot grow.
static inline KeystoneFrameEntry *keystone_frame_list_add(KeystoneFrameList *list, WebKitFrame *frame) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 16;
        KeystoneFrameEntry *grown = realloc(list->entries, capacity * sizeof(KeystoneFrameEntry));
        if (!grown) return 0;
        list->entries = grown;
        list->capacity = capacity;
    }
    KeystoneFrameEntry *entry = &list->entries[list->count++];
    *entry = (KeystoneFrameEntry){frame, 0, 0};
    return entry;
}

// Removes `entry` (the last entry takes its place).
static inline void keystone_frame_list_remove(KeystoneFrameList *list, KeystoneFrameEntry *entry) {
    *entry = list->entries[--list->count];
}

// Sets the global `name` of `frame`'s `world` to `number`, as decimal digits.
static inline void keystone_set_number_global(WebKitFrame *frame, WebKitScriptWorld *world, const char *name, guint64 number) {
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)number);
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
    JSCValue *value = jsc_value_new_string(context, digits);
    jsc_context_set_value(context, name, value);
    g_object_unref(value);
    g_object_unref(context);
}

#endif
