// BridgeLimits.swift — the most a page may send or keep open, each limit with a safe default.
/// The most a page may send a Keystone or keep open at once.
///
/// Every byte from a page is hostile, so every input has a bound: past one, the call is refused
/// with `BridgeError/Code-swift.struct/limitExceeded` (12), whose message names the limit and
/// never the payload. Each check runs before anything is decoded, echoed or put in a script.
///
/// ```swift
/// var components = KeystoneComponents()
/// components.limits.messageBytes = 64 << 20  // an app that sends large photos as base64
/// ```
public struct BridgeLimits: Sendable, Hashable {
    /// The most bytes a call's arguments (`{"data": …}`) may hold. Default 16 MiB.
    public var messageBytes: Int
    /// How deep arrays and objects may nest in a call's arguments, below the wrapper. Default 128.
    public var nestingDepth: Int
    /// The longest method name a page may call, in UTF-8 bytes. Default 256.
    public var methodNameBytes: Int
    /// The longest callback name (`_dscbstub`) a page may give, in UTF-8 bytes. Default 128.
    public var callbackNameBytes: Int
    /// How many of the page's asynchronous calls may run at once. Default 10,000.
    public var runningCalls: Int
    /// How many Swift calls of the page's handlers may wait for the page at once. Default 10,000.
    public var pendingCalls: Int
    /// How many methods a page load may declare (`_dsb.declare`), in all. Default 10,000.
    public var declaredMethods: Int
    /// How many calls one post of Keystone's page runtime may carry (a host's batch, and a fetch of
    /// Keystone's WebViewJavascriptBridge script's queue): past it, the rest of the post is refused
    /// with one answer. Keystone's runtime never sends more. WebViewJavascriptBridge's own script
    /// hands its whole queue at once: an admitted main frame's queue is answered in full, a slice
    /// at a time, bounded by its bytes. Default 1,024.
    public var messagesPerPost: Int
    /// The most UTF-8 bytes the value of the app's own `evaluate(javascript:)` may have, as JSON.
    /// Default 16 MiB.
    public var evaluationResultBytes: Int
    /// The most UTF-8 bytes of one console line a host relays; a longer one is cut. Default 16 KiB.
    public var consoleLineBytes: Int
    /// The most bytes one transfer over the byte channel may move, either way: a `Data` argument
    /// the page sends as bytes, or a `Data` result it fetches. A larger argument is refused before
    /// a byte of it is read; a larger result fails its call. Default 256 MiB.
    public var transferBytes: Int
    /// How many transfers may be open at once: tickets issued and not yet used. A result's bytes
    /// are held until the page fetches them, its call is cancelled or the page goes. Default 64.
    public var openTransfers: Int
    /// The most bytes one stream of the page's into a method that takes a `ByteStream` may carry
    /// in all; past it, the method's reading fails and the page is refused. However long a stream
    /// is, only a few megabytes of it are held at once. Default 4 GiB.
    public var streamBytes: Int
    /// The most bytes Keystone holds for one page load at once: `Data` results the page has not
    /// fetched, a stream gathered for a method that takes `Data`, and Swift's `Data` arguments to
    /// the page's handlers waiting to be fetched. Past it, a ticket is refused and Swift's call
    /// fails, coded. A page load holding all of it costs the app about that much and no more: its
    /// peak resident size grew by 1.02× the bytes held, through WebKitGTK's web-process extension
    /// and through the scheme alike (`Tests/Benchmark/budget.html`). Default 512 MiB.
    public var pageLoadBytes: Int
    /// How long a stream of the page's into Swift may go without a piece once the page may send
    /// one: past it (Keystone looks four times a timeout, so by a quarter of it more at most), the
    /// method's reading fails with `timedOut` and the page's stream is refused. Default 60 seconds.
    public var streamIdleTimeout: Duration
    /// How many subframe documents a page load may reach at once: documents whose calls are
    /// answered in their own frame (`CallerFrame.document`). Each is kept from its first call
    /// until it goes; past the limit, a new document's asynchronous calls are refused
    /// (`limitExceeded`). Documents of frames inside frames (an ad's embeds), as the host's
    /// isolated world tells, hold half of them at most, and those inside frames of one origin an
    /// eighth: the frames the app's own document makes keep the other half, and the frames its
    /// widgets make their own eighth. Default 64.
    public var subframeDocuments: Int
    /// How many durable calls (made with an idempotency key) are kept at once, running or with an
    /// outcome not yet acknowledged, for every origin together. An origin alone may use them all;
    /// an origin holding less than an equal share among the origins kept makes room by letting go
    /// of the oldest outcome of the origin holding the most past its share, so no origin keeps
    /// another from its share. Past it, a new durable call is refused (`limitExceeded`).
    /// Default 256.
    public var durableCalls: Int
    /// The most bytes of durable calls' outcomes kept at once, shared between origins as
    /// ``durableCalls`` is; an outcome past its origin's share is kept as a coded error
    /// (`limitExceeded`) that says so, never because of another origin's. Default 16 MiB.
    public var durableBytes: Int
    /// How long a durable call's outcome is kept after the call ended, unacknowledged. Default one
    /// day: long enough for an app brought back after its web content process was ended.
    public var durableLifetime: Duration
    /// The longest idempotency key of a durable call, in UTF-8 bytes. Default 128.
    public var durableKeyBytes: Int

    /// Creates limits, each defaulting to the value its property documents.
    public init(
        messageBytes: Int = 16 << 20,
        nestingDepth: Int = 128,
        methodNameBytes: Int = 256,
        callbackNameBytes: Int = 128,
        runningCalls: Int = 10_000,
        pendingCalls: Int = 10_000,
        declaredMethods: Int = 10_000,
        messagesPerPost: Int = 1_024,
        evaluationResultBytes: Int = 16 << 20,
        consoleLineBytes: Int = 16 << 10,
        transferBytes: Int = 256 << 20,
        openTransfers: Int = 64,
        streamBytes: Int = 1 << 32,
        pageLoadBytes: Int = 512 << 20,
        streamIdleTimeout: Duration = .seconds(60),
        subframeDocuments: Int = 64,
        durableCalls: Int = 256,
        durableBytes: Int = 16 << 20,
        durableLifetime: Duration = .seconds(86_400),
        durableKeyBytes: Int = 128
    ) {
        self.messageBytes = messageBytes
        self.nestingDepth = nestingDepth
        self.methodNameBytes = methodNameBytes
        self.callbackNameBytes = callbackNameBytes
        self.runningCalls = runningCalls
        self.pendingCalls = pendingCalls
        self.declaredMethods = declaredMethods
        self.messagesPerPost = messagesPerPost
        self.evaluationResultBytes = evaluationResultBytes
        self.consoleLineBytes = consoleLineBytes
        self.transferBytes = transferBytes
        self.openTransfers = openTransfers
        self.streamBytes = streamBytes
        self.pageLoadBytes = pageLoadBytes
        self.streamIdleTimeout = streamIdleTimeout
        self.subframeDocuments = subframeDocuments
        self.durableCalls = durableCalls
        self.durableBytes = durableBytes
        self.durableLifetime = durableLifetime
        self.durableKeyBytes = durableKeyBytes
    }
}
