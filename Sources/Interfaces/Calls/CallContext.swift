// CallContext.swift — what a method that asks for it learns about the call it is answering.
/// The call an interface method is answering: who made it, whether it was cancelled, and the page
/// load that made it.
///
/// A method asks for one by taking it as a parameter (``MethodList/async(_:_:)-(_,(Input,CallContext)->Output)``
/// and its siblings); methods that do not ask are unchanged.
///
/// ```swift
/// methods.async("pickPhoto") { (options: PickOptions, context: CallContext) in
///     try await context.page.emit("picker.opened", options)
///     return try await picker.pick(options, from: context.frame.origin)
/// }
/// ```
public struct CallContext: Sendable {
    /// The frame that made the call, as the engine reported it.
    public let frame: CallerFrame
    /// The page load that made the call. Calls, streams and events sent through it reach that page
    /// load only: once it has gone they fail with ``BridgeError/Code-swift.struct/pageGone``.
    public let page: any PageConnection
    /// Whether the page gave the call a callback for its results. `false` for a synchronous call
    /// (its answer is the call's own), and for an asynchronous method the page called without one
    /// (`dsBridge.call("m", data)`, WVJB's `callHandler("m", data)`): the method runs, and its
    /// results and failure are dropped (the failure is logged), as DSBridge-Android does.
    public let hasCallback: Bool
    private let cancellation: CallCancellation
    /// The bytes the call moves beside its JSON, when the page's runtime moves `Data` as parts.
    package let parts: CallParts?

    /// A context for a call from `frame`, bound to `page`, cancelled when `cancellation` is;
    /// `hasCallback` says whether the page waits for results through a callback.
    public init(frame: CallerFrame, page: any PageConnection, cancellation: CallCancellation = CallCancellation(), hasCallback: Bool = true) {
        self.init(frame: frame, page: page, cancellation: cancellation, hasCallback: hasCallback, parts: nil)
    }

    package init(frame: CallerFrame, page: any PageConnection, cancellation: CallCancellation, hasCallback: Bool, parts: CallParts?) {
        self.frame = frame
        self.page = page
        self.cancellation = cancellation
        self.hasCallback = hasCallback
        self.parts = parts
    }

    /// The page (web view) that made the call, of those its hub serves: with several web views on
    /// one Keystone, which one asks.
    public var pageID: PageID { page.pageID }

    /// Whether the call was cancelled: by the page (Keystone's runtime stops waiting for it) or by
    /// the page load ending. Inside the call's own task, `Task.isCancelled` says the same.
    public var isCancelled: Bool { cancellation.isCancelled }
}
