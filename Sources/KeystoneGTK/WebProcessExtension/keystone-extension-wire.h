// keystone-extension-wire.h — the one description of what Keystone's web-process extension and
// the GTK host say to each other, and of the page world's names the extension reads. The extension
// includes it; the host reads the same names through CWebKitGTK (KeystoneGTK's `ExtensionWire`),
// and hands the relay's and the isolated world's to their scripts as settings. A name changes here
// only, and both sides follow.
#ifndef KEYSTONE_EXTENSION_WIRE_H
#define KEYSTONE_EXTENSION_WIRE_H

// MARK: Messages between the extension and the host (WebKitUserMessage names and parameters)

// The extension's announcement, from each page's web process: `u`, the version it speaks. The host
// answers an announcement of another version as it would no announcement.
#define KEYSTONE_EXTENSION_MESSAGE "keystone.extension"
#define KEYSTONE_EXTENSION_VERSION 1
// The host's script for a subframe document: `(ts)`, the document's number and the script,
// evaluated in the document's page world while it is there. The reply says it has run, or not.
#define KEYSTONE_EVALUATE_MESSAGE "keystone.evaluate"
// The extension tells the host that a subframe document it numbered has gone: `t`.
#define KEYSTONE_FRAME_GONE_MESSAGE "keystone.frame-gone"
// Swift's bytes for the page: `(stt)`, the relay's request, the byte count and the subframe document
// whose relay asked (0: the main frame's), and one file descriptor of shared memory holding them.
#define KEYSTONE_BYTES_MESSAGE "keystone.bytes"
// The host's request for a piece of the page's bytes: `(stt)`, the relay's request, the subframe
// document whose relay offered it (0: the main frame's) and the most bytes the host takes; the
// reply holds their count and sealed shared memory holding them.
#define KEYSTONE_UPLOAD_MESSAGE "keystone.upload"

// MARK: Names in the page's worlds

// The global of the host's isolated world that holds its subframe document's number, as decimal
// digits; the isolated world puts it in its tag.
#define KEYSTONE_DOCUMENT_GLOBAL "_keystoneFrameDocument"
// The relay's object in the page world, and the members of it the extension calls: `target` (the
// page's own buffer for a download, if any), `received` (a download's bytes) and `outgoing` (a
// piece of the page's bytes the host asked for).
#define KEYSTONE_RELAY_GLOBAL "_keystoneHost"
#define KEYSTONE_RELAY_TARGET "target"
#define KEYSTONE_RELAY_RECEIVED "received"
#define KEYSTONE_RELAY_OUTGOING "outgoing"

#endif
