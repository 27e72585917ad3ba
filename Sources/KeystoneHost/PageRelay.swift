// PageRelay.swift — the protocol of a page-world relay and its isolated world, as a host that cannot
// tell which frame called (WebKitGTK's) hears it: who sent a text, and the answer it gets.
import Foundation
import Keystone

/// The relay's protocol as a value: a host hands it the texts the engine gives it (prompts, script
/// messages, the isolated world's reports) as bytes, read in place, and carries out the outcome.
///
/// An engine that does not say which frame sent a prompt or a message needs two scripts per
/// document: a relay in the page world, which makes the calls, and a script in an isolated world
/// that page scripts cannot reach, which reads the frame's kind and origin from its own bindings.
/// - The isolated world's texts start with a tag (``tagPrefix(secret:)``) holding a secret only it
///   knows, then `top` or `sub`, a subframe document's number where the host delivers to it
///   (`#` and digits, given by Keystone's web-process extension), `:` and the frame's origin, then
///   a new line.
/// - On a document's first call the relay has the isolated world ask for a capability
///   (``capabilityRequest``): a name for that frame and origin (`FrameCapabilities`, the latest 256
///   remembered). The relay's texts then start with ``capabilityPrefix`` and the capability.
/// - A text with neither came from a page script that went around the relay: unattested.
package struct PageRelay {
    /// Bytes of a text the engine handed over, read in place.
    package typealias Bytes = PostedText.Bytes

    /// Who sent a prompt or a message, as far as the engine lets the host tell.
    package enum Sender: Equatable {
        /// The host's isolated world, with the frame and origin it read itself.
        case isolatedWorld(CallerFrame)
        /// A document's relay, with the frame and origin its capability stands for.
        case relay(CallerFrame)
        /// A relay whose capability the host no longer remembers (or never issued).
        case forgotten
        /// A page script that went around the relay, from any frame.
        case unattested

        /// The frame a call from this sender is made for; `nil` for a forgotten capability, whose
        /// call is not made.
        var frame: CallerFrame? {
            switch self {
            case .isolatedWorld(let frame), .relay(let frame): frame
            case .forgotten: nil
            case .unattested: .unattested
            }
        }
    }

    /// What a host does with a prompt.
    package enum PromptOutcome: Equatable {
        /// Answer it with this text.
        case answer(String)
        /// It is handled: leave its text unset.
        case handled
        /// It is the page's own prompt, with this text, for the app's dialog handler.
        case pagePrompt(String)
    }

    /// What a host does with a script message.
    package enum MessageOutcome {
        /// Reply with this text.
        case answer(String)
        /// Reply `null`: a console line of `frame`'s, its level and text (read in place), for the
        /// app's console handler.
        case console(level: Bytes, text: Bytes, frame: CallerFrame)
        /// Reply `null`: nothing to answer.
        case ignored
        /// Reply with what the host does about the relay's request `request` of the bytes at
        /// `address` (a ticket's, as the transport gave it), for `frame`: ``downloadSent`` once it
        /// has sent them to the web process, which hands them to the relay itself; a refusal's
        /// JSON (`{"code":…,"message":…}`); or `""` when it sends nothing, and the page fetches them
        /// from the address.
        case download(request: String, address: String, frame: CallerFrame)
        /// Reply with what the host does about the relay's request `request` to send a piece of the
        /// page's bytes to `address` (a ticket's, its query naming the piece): the hub's answer once
        /// the host had the web process hand the bytes over (`{"ok":…,"answer":…}`), or `""` when it
        /// takes none that way, and the page posts them to the address.
        case upload(request: String, address: String, frame: CallerFrame)
    }

    /// What the isolated world reported on its own channel.
    package enum DocumentMessage: Equatable {
        /// The top document's report of itself (`HostScripts.documentReporting`), with its frame.
        case report(String, CallerFrame)
        /// A signal of the page's dialect the top document made (its address).
        case signal(String)
        /// A subframe document the web-process extension numbered is hidden for good (its frame
        /// commits a next document, whatever that is, or goes).
        case subframeEnded(FrameDocument)
    }

    /// What a numbered subframe document's isolated world posts as the document is hidden for good.
    package static let frameEnded = "frame-end"

    /// What the isolated world's prompts and messages start with.
    private let tagPrefix: [UInt8]
    /// The capabilities issued to the documents' relays.
    private var capabilities = FrameCapabilities()

    /// The relay's protocol for an isolated world that holds `secret`.
    package init(secret: String) {
        tagPrefix = Array(Self.tagPrefix(secret: secret).utf8)
    }

    /// What the isolated world's prompts and messages start with, then the frame (`top` or `sub`)
    /// and its origin, then a new line and its own text.
    package static func tagPrefix(secret: String) -> String { "\u{1}keystone:\(secret):" }
    /// What a relay's prompts and messages start with: then the document's capability, as
    /// `FrameCapabilities.length` hexadecimal digits, a new line and the page's own text.
    package static let capabilityPrefix = "\u{1}keystone-capability:"
    /// What the isolated world prompts, after its tag, to have a capability issued.
    package static let capabilityRequest = "\u{1}capability"
    /// The host's answer to a prompt or message whose capability it no longer remembers.
    package static let forgottenCapability = "\u{1}forgotten"
    /// The method a console line is posted as; no method a page calls can have this name.
    package static let consoleMethod = "\u{1}console"
    /// The method the relay asks for Swift's bytes with: then its request's name (its document's
    /// name, `.` and a count), a new line and the ticket's address. No method a page calls can have this name.
    package static let downloadMethod = "\u{1}download"
    /// The answer to a download the host sent to the web process: the bytes come to the relay
    /// from the web-process extension (`_keystoneHost.received`).
    package static let downloadSent = "\u{1}sent"
    /// The most bytes of a call's parts the relay offers in one piece where the web-process
    /// extension carries the bytes (the host then registers no scheme): a piece costs a trip
    /// between the processes, and no copy in the app, so one piece takes a part whole.
    package static let extensionPieceBytes = 64 << 20
    /// The method the relay offers a piece of the page's bytes with: then its request's name, a new
    /// line and the ticket's address with the piece's query. No method a page calls can have this name.
    package static let uploadMethod = "\u{1}upload"
    /// What the isolated world's report of a signal of the page's dialect starts with, before the
    /// signal's address.
    package static let signalPrefix = "signal "
    /// The most UTF-16 code units of messages the relay puts in one batch; a longer message goes
    /// alone.
    package static let batchLength = 1 << 20
    /// The most UTF-8 bytes of messages and framing one batch may carry: more than any batch the
    /// relay makes (at most ``batchLength`` code units of messages, each framed by a few digits and
    /// a colon), so only a page script that posts its own batch meets it.
    package static let batchBytes = 16 << 20
    /// The answer to a script message that is not a string, which no relay posts: refused unread,
    /// as a call's failed answer.
    package static let notText = BridgeError(code: .malformedMessage, message: "a message to the host must be a string").promptAnswer

    private static let capabilityPrefixBytes = Array(capabilityPrefix.utf8)
    private static let batchHeader = Array((PostedText.batchMethod + "\n").utf8)

    /// The answer to a batch over ``batchBytes``: one refusal, framed as a batch's answers are.
    private static let batchTooLarge: String = {
        var answers = ""
        let message = "a batch of messages is larger than the host's limit of \(batchBytes) bytes (Keystone's runtime never sends one)"
        PostedText.appendFramed(BridgeError(code: .limitExceeded, message: message).promptAnswer, to: &answers)
        return answers
    }()

    /// The web process ended: no capability issued to its documents stands any more.
    package mutating func forgetFrames() {
        capabilities.removeAll()
    }

    // MARK: Reading

    /// Splits a text into who sent it and the page's own text: the isolated world's tag or a
    /// relay's capability first, when the text has either. Text with neither came from a page
    /// script that called `prompt` or posted itself, from any frame. Read in place, as bytes: a
    /// call's text is copied once, into the strings the hub is given.
    package func identify(_ bytes: Bytes) -> (Sender, Bytes) {
        if bytes.starts(with: Self.capabilityPrefixBytes) {
            let start = Self.capabilityPrefixBytes.count
            let end = start + FrameCapabilities.length
            guard end < bytes.count, bytes[end] == UInt8(ascii: "\n") else { return (.unattested, bytes) }
            let frame = capabilities.frame(for: Bytes(rebasing: bytes[start..<end]))
            return (frame.map(Sender.relay) ?? .forgotten, Bytes(rebasing: bytes[(end + 1)...]))
        }
        guard bytes.starts(with: tagPrefix), let (header, rest) = Self.splitLine(Bytes(rebasing: bytes[tagPrefix.count...])) else {
            return (.unattested, bytes)
        }
        let isMainFrame = header.starts(with: "top".utf8)
        let isNested = header.starts(with: "nst".utf8)
        var origin = header.dropFirst(3)
        // A frame inside a frame ends its header with a space and its parent's origin.
        var parent: String?
        if isNested, let space = origin.firstIndex(of: UInt8(ascii: " ")) {
            parent = SecurityOrigin(String(decoding: origin[origin.index(after: space)...], as: UTF8.self))?.description ?? ""
            origin = origin[..<space]
        }
        var document: FrameDocument?
        if origin.first == UInt8(ascii: "#") {
            let digits = origin.dropFirst().prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard let number = UInt64(String(decoding: digits, as: UTF8.self)) else { return (.unattested, bytes) }
            document = FrameDocument(rawValue: number)
            origin = origin.dropFirst(1 + digits.count)
        }
        guard origin.first == UInt8(ascii: ":") else { return (.unattested, bytes) }
        // The document's own security origin; an opaque one reads "null" and is no origin.
        let security = SecurityOrigin(String(decoding: origin.dropFirst(), as: UTF8.self))
        var frame = CallerFrame(isMainFrame: isMainFrame, origin: security?.description, document: document)
        if isNested, !isMainFrame { frame.nestedIn = parent ?? "" }
        return (.isolatedWorld(frame), rest)
    }

    /// The bytes before the first line feed and those after it; the page's text is split by bytes,
    /// never by characters, which a combining mark after the line feed would merge with it.
    package static func splitLine(_ text: Bytes) -> (Bytes, Bytes)? {
        guard let newline = text.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return (Bytes(rebasing: text[..<newline]), Bytes(rebasing: text[(newline + 1)...]))
    }

    // MARK: Answering

    /// A prompt with `bytes` as its text and `defaultText` (`nil`: none): the isolated world's
    /// request for a capability, a relay's bridge prompt, or a page script's own prompt (a bridge
    /// prompt answered as unattested, any other left to the app).
    package mutating func answerPrompt(_ bytes: Bytes, defaultText: Bytes?, hub: any BridgeHub) -> PromptOutcome {
        let (sender, bytes) = identify(bytes)
        switch sender {
        case .isolatedWorld(let frame):
            guard bytes.elementsEqual(Self.capabilityRequest.utf8) else { return .handled }
            return .answer(capabilities.issue(for: frame))
        case .forgotten:
            return .answer(Self.forgottenCapability)
        case .relay(let frame):
            return .answer(Self.answerRelayPrompt(bytes, defaultText: defaultText ?? Bytes(start: nil, count: 0), frame: frame, hub: hub))
        case .unattested:
            let text = String(decoding: bytes, as: UTF8.self)
            guard BridgePrompt.matches(text) else { return .pagePrompt(text) }
            let defaultText = defaultText.map { String(decoding: $0, as: UTF8.self) }
            return .answer(hub.refusal(of: .unattested) ?? hub.handlePrompt(text, defaultText: defaultText, frame: .unattested) ?? "")
        }
    }

    /// A relay's bridge prompt from `frame`: admitted first, then read by the lengths the relay
    /// framed it with (`<prompt length>,<default text length>`, a new line, the prompt) in UTF-16
    /// code units. The engine hands both texts over as C strings, so a NUL in either shows as a
    /// shorter text, and the call is refused rather than made with a name or arguments cut short.
    private static func answerRelayPrompt(_ bytes: Bytes, defaultText: Bytes, frame: CallerFrame, hub: any BridgeHub) -> String {
        if let refusal = hub.refusal(of: frame) { return refusal }
        guard let (lengths, text) = splitLine(bytes), let comma = lengths.firstIndex(of: UInt8(ascii: ",")),
            Int(String(decoding: Bytes(rebasing: lengths[..<comma]), as: UTF8.self)) == PostedText.utf16Count(text),
            Int(String(decoding: Bytes(rebasing: lengths[(comma + 1)...]), as: UTF8.self)) == PostedText.utf16Count(defaultText)
        else { return PostedText.Refusal.lengthMismatch }
        return hub.handlePrompt(String(decoding: text, as: UTF8.self), defaultText: String(decoding: defaultText, as: UTF8.self), frame: frame) ?? ""
    }

    /// A relay's script message, posted by the isolated world: its capability, then `method`, a new
    /// line, and the arguments; or a batch of such messages (`PostedText/batchMethod`), answered
    /// together; or a console line. A sender the hub does not admit is refused whole, before
    /// anything else is read.
    package func answerMessage(_ message: Bytes, hub: any BridgeHub) -> MessageOutcome {
        let (sender, text) = identify(message)
        guard let frame = sender.frame else { return .answer(Self.forgottenCapability) }
        let isBatch = text.starts(with: Self.batchHeader)
        if let refusal = hub.refusal(of: frame) {
            guard isBatch else { return .answer(refusal) }
            var answers = ""
            PostedText.appendFramed(refusal, to: &answers)
            return .answer(answers)
        }
        if isBatch {
            guard text.count <= Self.batchBytes else { return .answer(Self.batchTooLarge) }
            return .answer(
                PostedText.answerBatch(Bytes(rebasing: text[Self.batchHeader.count...]), limit: hub.limits.messagesPerPost) { method, arguments in
                    hub.handleMessage(String(decoding: method, as: UTF8.self), arguments: String(decoding: arguments, as: UTF8.self), frame: frame)
                })
        }
        guard let (method, arguments) = Self.splitLine(text) else { return .answer(PostedText.Refusal.namesNoMethod) }
        if method.elementsEqual(Self.consoleMethod.utf8) {
            guard let (level, line) = Self.splitLine(arguments) else { return .ignored }
            return .console(level: level, text: line, frame: frame)
        }
        let isDownload = method.elementsEqual(Self.downloadMethod.utf8)
        if isDownload || method.elementsEqual(Self.uploadMethod.utf8) {
            // A request's name is the relay's own (its document's name, `.`, a count: digits,
            // lowercase letters and dots); an address is at most a URL's length.
            guard let (request, address) = Self.splitLine(arguments), (1...40).contains(request.count),
                request.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: ".") }),
                address.count <= 2_048
            else { return .answer("") }
            let (name, at) = (String(decoding: request, as: UTF8.self), String(decoding: address, as: UTF8.self))
            return isDownload ? .download(request: name, address: at, frame: frame) : .upload(request: name, address: at, frame: frame)
        }
        return .answer(hub.handleMessage(String(decoding: method, as: UTF8.self), arguments: String(decoding: arguments, as: UTF8.self), frame: frame))
    }

    /// A message on the isolated world's own channel: the top document's report of itself, or a
    /// signal it made. Only the isolated world can post there; its tag still says which frame
    /// posted, and only the top document's are read.
    package func documentMessage(_ message: Bytes) -> DocumentMessage? {
        guard case (.isolatedWorld(let frame), let bytes) = identify(message) else { return nil }
        if let document = frame.document {
            return bytes.elementsEqual(Self.frameEnded.utf8) ? .subframeEnded(document) : nil
        }
        guard frame.isAttestedMainFrame else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(Self.signalPrefix) else { return .report(text, frame) }
        return .signal(String(text.dropFirst(Self.signalPrefix.count)))
    }
}
