// PageWire.swift — the wire protocol a host speaks with the page's own bridge script.
/// The wire a page's bridge script speaks, when the host serves the page bare (the page brings its
/// own script). Pages on Keystone's runtime speak DSBridge v3 whatever they were written for.
public enum PageWire: Sendable, Hashable {
    /// dsbridge.js 3.1.4: `prompt` and evaluated callbacks.
    case dsbridge
    /// WebViewJavascriptBridge 6: a queue the host fetches after a navigation to
    /// `https://__wvjb_queue_message__`, and `_handleMessageFromObjC` (the hub speaks it through its WVJB wire).
    case webViewJavascriptBridge

    /// Whether a navigation to `uri` is one of WVJB's signals, which never reach the network.
    package static func isWVJBSignal(_ uri: String) -> Bool {
        isWVJBQueueSignal(uri) || isWVJBBridgeRequest(uri)
    }

    /// WVJB's signal that its queue has messages, in both spellings.
    package static func isWVJBQueueSignal(_ uri: String) -> Bool {
        let lowered = uri.lowercased()
        return lowered.hasPrefix("https://__wvjb_queue_message__") || lowered.hasPrefix("wvjbscheme://__wvjb_queue_message__")
    }

    /// WVJB's boilerplate asking for a bridge, in both spellings.
    package static func isWVJBBridgeRequest(_ uri: String) -> Bool {
        let lowered = uri.lowercased()
        return lowered.hasPrefix("https://__bridge_loaded__") || lowered.hasPrefix("wvjbscheme://__bridge_loaded__")
    }
}
