// CallerFrame.swift — which frame of the page made a call, as the engine reported it.
/// The frame of the page a call came from, as the host learned it from the engine.
///
/// A host reports a call as *attested* when the engine itself vouches for the frame and origin
/// (`WKFrameInfo` on Apple systems; the host's isolated script world on WebKitGTK). A call the
/// engine cannot vouch for — a page that calls `prompt` itself, bypassing the host's relay — is
/// reported unattested, from an unknown frame, and the call policy decides what it may do.
public struct CallerFrame: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whether the call came from the page's main frame.
    public var isMainFrame: Bool
    /// The calling frame's origin (`https://example.com`), when the host knows it.
    public var origin: String?
    /// Whether the engine vouches for ``isMainFrame`` and ``origin``.
    public var isAttested: Bool
    /// The subframe's document, where the host can deliver to it: its asynchronous calls are
    /// answered there, and Swift can call its handlers. `nil` for the main frame, and for a
    /// subframe the host cannot reach (which may make synchronous calls only).
    public var document: FrameDocument?
    /// For a frame inside a frame (its parent is not the top document), its parent document's
    /// origin as the host's isolated world reads it (`location.ancestorOrigins`), or `""` when the
    /// host could not tell yet; `nil` for any other frame. Such documents share a part of the page
    /// load's subframe slots (`BridgeLimits.subframeDocuments`), each parent's origin a part of
    /// that. A host outside the package never says so.
    package var nestedIn: String?
    /// Whether the frame is inside another subframe (``nestedIn``).
    package var isNested: Bool { nestedIn != nil }

    /// Creates a frame as a host reports it: whether it is the main frame, its origin, whether the
    /// engine vouched for both, and a subframe's document where the host can deliver to it.
    public init(isMainFrame: Bool, origin: String?, isAttested: Bool = true, document: FrameDocument? = nil) {
        self.isMainFrame = isMainFrame
        self.origin = origin
        self.isAttested = isAttested
        self.document = isMainFrame || !isAttested ? nil : document
    }

    /// The main frame, origin unknown.
    public static let mainFrame = CallerFrame(isMainFrame: true, origin: nil)

    /// A caller the engine cannot vouch for: any frame, any origin.
    public static let unattested = CallerFrame(isMainFrame: false, origin: nil, isAttested: false)

    /// Whether the engine vouches that the call came from the main frame.
    public var isAttestedMainFrame: Bool { isMainFrame && isAttested }

    /// Whether the frame's results can reach it: the attested main frame, or a subframe whose
    /// document the host names.
    package var isReachable: Bool { isAttestedMainFrame || document != nil }

    private enum CodingKeys: String, CodingKey {
        case isMainFrame, origin, isAttested, document
    }

    public var description: String {
        guard isAttested else { return "an unattested frame" }
        let frame = "\(isMainFrame ? "main frame" : "subframe") \(origin ?? "(origin unknown)")"
        return document.map { "\(frame) (\($0))" } ?? frame
    }
}
