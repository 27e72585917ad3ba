// ScriptBatch.swift — the messages of one evaluation, and the one script that delivers them.
/// The messages of one evaluation, in order, the page runtime they are written for, and the page
/// load they were made for.
public struct ScriptBatch: Sendable, Hashable {
    /// The messages, structured.
    public let messages: [PageMessage]
    /// The runtime the page announced; it decides how ``script`` is written.
    public let runtime: PageRuntime
    /// The page load the messages were made for. A target evaluates the batch only while that page
    /// load is the hub's current one (`BridgeHub` tells), checked when the engine is about to run
    /// it: a batch that waited in a queue while the page changed reaches no later page.
    public let pageLoad: PageLoad

    /// Creates a batch of `messages`, written for `runtime`, for the page load `pageLoad`.
    public init(messages: [PageMessage], runtime: PageRuntime = .dsbridge, pageLoad: PageLoad = .first) {
        self.messages = messages
        self.runtime = runtime
        self.pageLoad = pageLoad
    }

    /// The one script that delivers every message of the batch. Rendered on each access: a host
    /// reads it once.
    public var script: String { ScriptRenderer.render(messages, for: runtime) }
}
