// CallerFrame.swift — which frame of the page made the current call, for methods that need to know.
/// The frame of the page a call came from, as the host reported it.
public struct CallerFrame: Sendable, Hashable, CustomStringConvertible {
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

    /// The frame of the call being handled, inside an interface method (its tasks inherit it).
    @TaskLocal public static var current: CallerFrame?

    public var description: String { "\(isMainFrame ? "main frame" : "subframe") \(origin ?? "(origin unknown)")" }
}
