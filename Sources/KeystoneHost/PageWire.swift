// PageWire.swift — the wire protocol a host speaks with the page's own bridge script, and the
// page dialect each one is.
import Keystone

/// The wire a page's bridge script speaks, when the host serves the page bare (the page brings its
/// own script). Pages on Keystone's runtime speak DSBridge v3 whatever they were written for.
public enum PageWire: Sendable, Hashable {
    /// dsbridge.js 3.1.4: `prompt` and evaluated callbacks.
    case dsbridge
    /// WebViewJavascriptBridge 6: a queue the host fetches after a navigation to
    /// `https://__wvjb_queue_message__`, and `_handleMessageFromObjC` (the hub speaks it through its WVJB wire).
    case webViewJavascriptBridge
}

extension PageWire {
    /// The dialect a page of this wire speaks to `hub`.
    package func dialect(hub: any BridgeHub) -> any PageDialect {
        switch self {
        case .dsbridge: .dsBridge
        case .webViewJavascriptBridge: .webViewJavascriptBridge(hub: hub)
        }
    }
}
