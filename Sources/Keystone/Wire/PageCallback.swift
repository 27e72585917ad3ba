// PageCallback.swift — a callback of the page's, named in the document that opened it.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A callback of the page's: its name, in the document that opened it — the main frame's, or a
/// subframe document's (`CallerFrame.document`). The runtimes of two documents name their
/// callbacks alike, so a name alone says nothing of whose it is.
struct PageCallback: Sendable, Hashable, CustomStringConvertible {
    var name: String
    /// The subframe document; `nil`: the main frame.
    var frame: FrameDocument?

    init(_ name: String, in frame: FrameDocument? = nil) {
        self.name = name
        self.frame = frame
    }

    var description: String { frame.map { "\(name) of \($0)" } ?? name }
}

extension CallerFrame {
    /// The subframe document the frame's results go to: the document the host names for an
    /// attested subframe; `nil` for the main frame (whose results go to the page) and any other.
    var subframeDocument: FrameDocument? {
        isAttested && !isMainFrame ? document : nil
    }
}

extension InboundCall {
    /// The call's callback, in the document that made the call.
    var pageCallback: PageCallback? {
        callback.map { PageCallback($0, in: frame.subframeDocument) }
    }
}

extension PageCallback: ExpressibleByStringLiteral {
    /// The main frame's callback of this name.
    init(stringLiteral name: String) {
        self.init(name)
    }
}
