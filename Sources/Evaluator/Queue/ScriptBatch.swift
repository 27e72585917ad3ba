// ScriptBatch.swift — the messages of one evaluation, and the one script that delivers them.
import KeystoneInterfaces

/// The messages of one evaluation, in order, the page runtime they are written for, the page load
/// they were made for, and the subframe document they go to (none: the main frame).
public struct ScriptBatch: Sendable, Hashable {
    /// The messages, structured.
    public let messages: [PageMessage]
    /// The runtime the page announced; it decides how ``script`` is written.
    public let runtime: PageRuntime
    /// The page load the messages were made for. A target evaluates the batch only while that page
    /// load is the hub's current one (`BridgeHub` tells), checked when the engine is about to run
    /// it: a batch that waited in a queue while the page changed reaches no later page.
    public let pageLoad: PageLoad
    /// The subframe document the batch is for, evaluated in that document only and dropped once
    /// it has gone; `nil`: the main frame.
    public let frame: FrameDocument?

    /// Creates a batch of `messages`, written for `runtime`, for the page load `pageLoad`, bound for
    /// the subframe document `frame` (`nil`: the main frame).
    public init(messages: [PageMessage], runtime: PageRuntime = .dsbridge, pageLoad: PageLoad = .first, frame: FrameDocument? = nil) {
        self.messages = messages
        self.runtime = runtime
        self.pageLoad = pageLoad
        self.frame = frame
    }

    /// The one script that delivers every message of the batch. Rendered on each access: a host
    /// reads it once.
    public var script: String { ScriptRenderer.render(messages, for: runtime) }
}
