// FrameDocument.swift — a host's name for one document of a subframe, where it delivers scripts.
/// One document of one of the page's subframes, as its host names it: where the host delivers the
/// results of the frame's calls and Swift's calls of the frame's handlers.
///
/// A host names a subframe's document only when it can evaluate scripts in it (the WebKitGTK host
/// through Keystone's web-process extension, the Apple host in the frame WebKit names). The name stands for that document alone: once the
/// frame navigates or is removed, the host says the document has gone (`BridgeHub`'s
/// `frameDidUnload`), and nothing more reaches it. A subframe the host names no document for can
/// make synchronous calls only.
public struct FrameDocument: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The host's number for the document, unique among the documents of its web view. Keystone's
    /// hosts keep it below 2^53, so that a page reads it exactly as a JavaScript number.
    public let rawValue: UInt64

    /// The document the host numbers `rawValue`.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "frame document \(rawValue)" }

    /// Reads the document's number, as ``encode(to:)`` writes it.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UInt64.self)
    }

    /// Writes the document's number alone: `12`, not `{"rawValue":12}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
