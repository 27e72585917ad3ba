// BridgeHub.swift — what a host (a web view, or an in-memory page) needs from a Keystone.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The hub a host drives. ``Keystone`` is the default; a host accepts any `BridgeHub`.
///
/// An implementation must answer every bridge prompt (never leave the page waiting), return `nil`
/// for prompts that are not the bridge's, and be callable from any thread.
public protocol BridgeHub: AnyObject, Sendable {
    /// Answers the page's `prompt(text, defaultText)` from `frame`: the text the `prompt` call must
    /// return, or `nil` when the prompt is not a bridge call (then the host shows its normal dialog).
    func handlePrompt(_ text: String, defaultText: String?, frame: CallerFrame) -> String?
    /// Answers a call that arrived as a script message (`postMessage` with a reply) rather than a
    /// `prompt`: `method` as the page named it, `arguments` its `{"data": …}` JSON wrapper. The
    /// answer is the same text a `prompt` would have returned.
    func handleMessage(_ method: String, arguments: String, frame: CallerFrame) -> String
    /// Answers a call that reached the host already split, from a wire whose messages are not
    /// DSBridge's wrapper (WebViewJavascriptBridge's): `method` as the page named it, `data` the
    /// raw JSON bytes of its argument (`nil` when it has none; untrusted, like every byte from the
    /// page), `callback` the callback name the hub's results go to for an asynchronous call, and
    /// `acceptsInlineAnswer` as ``InboundCall/acceptsInlineAnswer`` says. The answer is the same a
    /// `prompt` gets, as a value.
    ///
    /// A hub that implements only the text entries gets this one through
    /// ``handleMessage(_:arguments:frame:)``.
    func handleCall(_ method: String, data: Data?, callback: String?, acceptsInlineAnswer: Bool, frame: CallerFrame) -> CallAnswer
    /// The host serves a byte channel over `transport`: from now on the `Data` in the values of
    /// Keystone's page runtime's calls moves as raw bytes through it, each transfer admitted by a
    /// ticket the hub issues over the call channel. The page hears so when it initializes.
    func serveBytes(over transport: any ByteTransport)
    /// The host no longer serves its byte channel (it gave the web view back): from now on `Data`
    /// moves as base64 in JSON until a host serves one again.
    func stopServingBytes()
    /// Answers one request on the host's byte channel, as its transport read it. `readBody` reads
    /// the request's body, at most `limit` bytes (`nil` when it holds more); the hub calls it only
    /// once the request's ticket has admitted it, so nothing a refused request sends is read, and
    /// only before `receiveBytes` returns.
    ///
    /// The hub calls `respond` exactly once: mostly before `receiveBytes` returns, but a piece of a
    /// stream into Swift is answered only once the method reading it has room for the next, on
    /// whatever thread it reads on.
    func receiveBytes(_ request: ByteRequest, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (ByteResponse) -> Void)
    /// Returns when `frame` may send anything at all; throws a `BridgeError` (`notAllowed`) to
    /// refuse. A host asks before it reads what the sender posted, and refuses a refused sender's
    /// post whole, with one answer.
    func admitSender(_ frame: CallerFrame) throws(BridgeError)
    /// Sets where scripts bound for the page go. Held weakly.
    func attach(to target: any EvaluationTarget)
    /// The page has gone (navigation, reload, or its web process ended): everything bound for it
    /// settles or is dropped.
    func pageDidUnload()
    /// The subframe document `document` has gone (its frame navigated or was removed), while the
    /// page stays: Swift's calls of its handlers settle, and its running calls are cancelled. A
    /// host that names subframe documents (`CallerFrame.document`) says so for each one.
    func frameDidUnload(_ document: FrameDocument)
    /// The page load scripts may run in now: a target evaluates a `ScriptBatch` only while its
    /// `ScriptBatch/pageLoad` is this one.
    var pageLoad: PageLoad { get }
    /// The origins whose documents get the page runtime and the host's relay (`nil`: every
    /// document). A host reads it once, when it is created.
    var runtimeOrigins: Set<String>? { get }
    /// The host serves the app's own pages at `origin` (`AppOrigin`, in the host kit): a hub whose
    /// app lists no origins of its own admits those pages and no others from now on. A host says so
    /// once, when it is created, before it reads ``runtimeOrigins``.
    func servesAppOrigin(_ origin: String)
    /// The most a page may send: hosts hold what they read themselves (batches, console lines, the
    /// app's evaluations) to it.
    var limits: BridgeLimits { get }
    /// The hub a host about to serve a web view serves it through, which it keeps until it closes
    /// (``closePage()``): a hub that serves several pages at once gives each host one of its own (a
    /// ``Keystone`` its first page while no host serves it, otherwise a new ``KeystonePage``).
    func openPage() -> any BridgeHub
    /// The host that opened this page (``openPage()``) has closed, after its page's last unload.
    func closePage()
}

extension BridgeHub {
    /// The call as DSBridge's wrapper text, through ``handleMessage(_:arguments:frame:)``, and its
    /// answer read back.
    public func handleCall(_ method: String, data: Data?, callback: String?, acceptsInlineAnswer: Bool, frame: CallerFrame) -> CallAnswer {
        var wrapper = Data("{".utf8)
        if let data { wrapper += Data(#""data":"#.utf8) + data }
        if let callback {
            if data != nil { wrapper += Data(",".utf8) }
            wrapper += Data(#""_dscbstub":"#.utf8) + JSONText(quoting: callback).bytes
            if acceptsInlineAnswer { wrapper += Data(#","_dsinline":true"#.utf8) }
        }
        wrapper += Data("}".utf8)
        let text = handleMessage(method, arguments: String(decoding: wrapper, as: UTF8.self), frame: frame)
        return CallAnswer(text: text, calledWithCallback: callback != nil)
    }

    public var runtimeOrigins: Set<String>? { nil }

    /// The hub itself: it serves one page, whichever hosts serve it.
    public func openPage() -> any BridgeHub { self }

    /// Keeps nothing of its hosts.
    public func closePage() {}

    /// Admits every origin all the same: a hub of its own decides which pages it answers.
    public func servesAppOrigin(_ origin: String) {}

    /// Keeps nothing of subframe documents, so has nothing to let go.
    public func frameDidUnload(_ document: FrameDocument) {}

    /// Serves no byte channel: `Data` moves as base64 in JSON.
    public func serveBytes(over transport: any ByteTransport) {}

    /// Serves no byte channel: there is none to stop.
    public func stopServingBytes() {}

    /// Refuses every request: this hub moves no bytes.
    public func receiveBytes(_ request: ByteRequest, readBody: (_ limit: Int) -> Data?, respond: @escaping @Sendable (ByteResponse) -> Void) {
        respond(.refused(BridgeError(code: .notFound, message: "no such transfer")))
    }

    /// The hub's answer to one request on the byte channel, or `nil` when it answers later (a
    /// stream's piece waiting for room): for the in-memory page, the fuzzer and tests, which
    /// present requests the hub answers at once.
    package func receiveBytesNow(_ request: ByteRequest, readBody: (_ limit: Int) -> Data?) -> ByteResponse? {
        let answered = Locked<ByteResponse?>(nil)
        receiveBytes(request, readBody: readBody) { response in
            answered.withLock { $0 = response }
        }
        return answered.withLock { $0 }
    }

    public var limits: BridgeLimits { BridgeLimits() }

    /// Admits every sender: each call is still answered (or refused) on its own.
    public func admitSender(_ frame: CallerFrame) throws(BridgeError) {}

    /// The one answer a host gives a post from a sender the hub refuses, or `nil` when `frame` is
    /// admitted.
    public func refusal(of frame: CallerFrame) -> String? {
        do {
            try admitSender(frame)
            return nil
        } catch {
            return PromptAnswer.failure(error)
        }
    }

    /// A prompt from the main frame, origin unknown.
    package func handlePrompt(_ text: String, defaultText: String?) -> String? {
        handlePrompt(text, defaultText: defaultText, frame: .mainFrame)
    }

    /// A script message from the main frame, origin unknown.
    package func handleMessage(_ method: String, arguments: String) -> String {
        handleMessage(method, arguments: arguments, frame: .mainFrame)
    }
}
