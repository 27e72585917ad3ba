// Subframes.swift — the subframe documents a page load reaches, as a pure value.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The subframe documents of the current page load that the host delivers to
/// (`CallerFrame.document`), without locks or side effects: each one's frame, the runtime it
/// announced, and whether it has registered its handlers.
///
/// A document enters with its first call and leaves when the host says it has gone
/// (`frameDidUnload`) or the page load ends. Its results go to it whether or not it has announced
/// itself (it called, so its runtime runs); Swift's calls of its handlers wait for it to register
/// them (`_dsb.dsinit`), as the main frame's do, and fail when it goes first. At most `limit`
/// documents are kept at once.
struct Subframes<Waiting: Sendable>: Sendable {
    struct Document: Sendable {
        var frame: CallerFrame
        var runtime = PageRuntime.dsbridge
        var isReady = false
        /// Swift's messages for the document's handlers, in order, until it registers them.
        var waiting: [Waiting] = []
    }

    /// The most documents kept at once.
    let limit: Int
    private(set) var documents: [FrameDocument: Document] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    /// Records `frame`'s document, on a call of its: the refusal when the page load already reaches
    /// `limit` others, or, for a nested document (a frame inside a frame, which the app may not
    /// have made), when nested ones hold half of them, or those inside frames of its parent's origin
    /// an eighth: frames nested in an ad cannot take the slots of the frames the app's own document
    /// makes, nor of those its widgets make.
    mutating func enter(_ frame: CallerFrame, document: FrameDocument) -> BridgeError? {
        guard documents[document] == nil else { return nil }
        guard documents.count < limit else {
            return BridgeError(code: .limitExceeded, message: "the page already has BridgeLimits.subframeDocuments (\(limit)) subframe documents calling")
        }
        if let parent = frame.nestedIn {
            if documents.values.count(where: \.frame.isNested) >= limit / 2 {
                let message = "frames inside frames already hold half of BridgeLimits.subframeDocuments (\(limit / 2) subframe documents calling)"
                return BridgeError(code: .limitExceeded, message: message)
            }
            if documents.values.count(where: { $0.frame.nestedIn == parent }) >= max(1, limit / 8) {
                let message = "frames inside frames of one origin already hold an eighth of BridgeLimits.subframeDocuments (\(max(1, limit / 8)))"
                return BridgeError(code: .limitExceeded, message: message)
            }
        }
        documents[document] = Document(frame: frame)
        return nil
    }

    /// The document has registered its handlers, announcing `runtime`; Keystone's runtime, once
    /// announced, stays (a page with two bridge scripts initializes twice). What waited for it, in
    /// order.
    mutating func initialize(_ document: FrameDocument, runtime: PageRuntime) -> [Waiting] {
        guard documents[document] != nil else { return [] }
        documents[document]?.isReady = true
        if runtime == .keystone { documents[document]?.runtime = .keystone }
        defer { documents[document]?.waiting = [] }
        return documents[document]?.waiting ?? []
    }

    /// `message` waits for the document to register its handlers; `false` when the document is
    /// not kept.
    mutating func wait(_ message: Waiting, for document: FrameDocument) -> Bool {
        guard documents[document] != nil else { return false }
        documents[document]?.waiting.append(message)
        return true
    }

    /// Takes back the first message waiting for `document` that `matches`; whether one did.
    mutating func withdraw(from document: FrameDocument, where matches: (Waiting) -> Bool) -> Bool {
        guard let index = documents[document]?.waiting.firstIndex(where: matches) else { return false }
        documents[document]?.waiting.remove(at: index)
        return true
    }

    /// A call of the document's spoke as only Keystone's runtime does: its results go to that
    /// runtime, before it announces itself too.
    mutating func heardKeystone(_ document: FrameDocument) {
        documents[document]?.runtime = .keystone
    }

    /// The runtime the document announced; `nil` for a document the page load does not reach.
    func runtime(of document: FrameDocument) -> PageRuntime? {
        documents[document]?.runtime
    }

    /// Whether Swift can call the document's handlers: it has registered them.
    func isReady(_ document: FrameDocument) -> Bool {
        documents[document]?.isReady == true
    }

    /// The frames whose handlers Swift can call, in the order of their documents' numbers.
    var readyFrames: [CallerFrame] {
        documents.filter(\.value.isReady).sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value.frame)
    }

    /// The document has gone; whether it was kept.
    @discardableResult
    mutating func remove(_ document: FrameDocument) -> Bool {
        documents.removeValue(forKey: document) != nil
    }

    mutating func removeAll() {
        documents.removeAll()
    }
}

extension Subframes {
    /// Whether the document `frame` called from is known to run Keystone's runtime: a subframe
    /// document's as it announced itself or was heard, the main frame's as `page` says.
    func knowsKeystoneRuntime<Waiter>(of frame: CallerFrame, page: PageLoadState<Waiter>) -> Bool {
        guard let document = frame.subframeDocument else { return !frame.isAttestedMainFrame || page.runtime == .keystone }
        return runtime(of: document) == .keystone
    }

    /// A call from `frame` spoke as only Keystone's runtime does (`CallWrapper/speaksKeystone`): its
    /// document's results go to that runtime from now on, though it has not announced itself yet
    /// (a call made before the runtime's `_dsb.dsinit` would otherwise be answered as a plain
    /// page's, and a stream of it would never end).
    mutating func heardKeystoneRuntime<Waiter>(from frame: CallerFrame, page: inout PageLoadState<Waiter>) {
        if let document = frame.subframeDocument {
            heardKeystone(document)
        } else if frame.isAttestedMainFrame {
            page.heardKeystone()
        }
    }
}
