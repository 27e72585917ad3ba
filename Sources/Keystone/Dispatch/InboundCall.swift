// InboundCall.swift — one call from the page, resolved: what middleware and dispatchers receive.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A call from the page to a registered interface, after its name was resolved.
public struct InboundCall: Sendable {
    /// The method the page named, split into namespace and method; its `description` is the full name.
    public let name: MethodName
    /// The frame that made the call and its origin, as the engine reported them.
    public let frame: CallerFrame
    /// The raw JSON bytes of the call's `data` (`nil` when absent). Untrusted: whatever the page sent.
    public let data: Data?
    /// The page's callback (`_dscbstub`) for an asynchronous call; `nil` for a synchronous one.
    public let callback: String?
    /// Whether the page takes a result in the answer to this asynchronous call, in one round trip
    /// (`"_dsinline": true`, which Keystone's runtime sends from `invoke`). The rule, kept here
    /// once:
    /// - A synchronous method called so runs at once, and its result is the call's answer
    ///   (`{"code":0,"data":…,"inline":true}`); nothing comes through the callback.
    /// - An asynchronous method's single result is the answer too when the method finished without
    ///   ever waiting, on the thread that received the call, before that thread wrote the answer.
    ///   A method that waits resumes on another thread, whose result always goes through the
    ///   callback, so which way a result goes never depends on timing.
    /// - Failures, multi-response results, and every call without the flag go through the callback.
    ///   Pages written for dsbridge.js never send it: a synchronous method called with a callback
    ///   is refused `unsupportedCallKind`, as DSBridge refuses it.
    public let acceptsInlineAnswer: Bool
    /// The bytes the call moves beside its JSON, for a page whose runtime moves `Data` as parts;
    /// `nil` for every other.
    package let parts: CallParts?

    /// Creates a call as the Keystone received it; for a dispatcher or middleware of your own, and
    /// for tests.
    public init(name: MethodName, frame: CallerFrame, data: Data?, callback: String?, acceptsInlineAnswer: Bool = false) {
        self.init(name: name, frame: frame, data: data, callback: callback, acceptsInlineAnswer: acceptsInlineAnswer, parts: nil)
    }

    package init(name: MethodName, frame: CallerFrame, data: Data?, callback: String?, acceptsInlineAnswer: Bool, parts: CallParts?) {
        self.name = name
        self.frame = frame
        self.data = data
        self.callback = callback
        self.acceptsInlineAnswer = acceptsInlineAnswer && callback != nil
        self.parts = parts
    }

    /// The same call, with the parts the page sent beside its JSON.
    func with(received: [Data]) -> InboundCall {
        InboundCall(name: name, frame: frame, data: data, callback: callback, acceptsInlineAnswer: acceptsInlineAnswer, parts: parts?.with(received: received))
    }

    /// The same call, with the argument the page is sending as a stream. It never answers inline:
    /// its answer is the ticket for the stream.
    func with(stream: ByteStream) -> InboundCall {
        InboundCall(name: name, frame: frame, data: data, callback: callback, acceptsInlineAnswer: false, parts: parts?.with(stream: stream))
    }

    /// Whether the page waits for the answer through a callback rather than in its `prompt`.
    public var isAsynchronous: Bool { callback != nil }

    /// Whether the call is of one of the protocol's own methods, under
    /// ``MethodName/builtInNamespace``: dispatched over their registry, with the default
    /// dispatcher and no middleware, whatever the app replaces.
    var isBuiltIn: Bool { name.namespace == MethodName.builtInNamespace }
}
