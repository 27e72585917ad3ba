// CallerFrame.swift — which frame of the page made a call, as the engine reported it.
/// The frame of the page a call came from, as the host learned it from the engine.
public struct CallerFrame: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whether the call came from the page's main frame.
    public var isMainFrame: Bool
    /// The calling frame's origin (`https://example.com`), when the host knows it.
    public var origin: String?

    public init(isMainFrame: Bool, origin: String?) {
        self.isMainFrame = isMainFrame
        self.origin = origin
    }

    /// The main frame, origin unknown: what a host that cannot tell reports.
    public static let mainFrame = CallerFrame(isMainFrame: true, origin: nil)

    public var description: String { "\(isMainFrame ? "main frame" : "subframe") \(origin ?? "(origin unknown)")" }
}
