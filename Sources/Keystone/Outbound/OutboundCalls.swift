// OutboundCalls.swift — Swift calling the page's handlers and sending it events, for the page load
// each is bound to: the calls' table in the hub's state, their arguments encoded once.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Swift's calls of the page's handlers and its events, as the hub makes them: `Keystone.call`,
/// `start`, `post`, `stream` and `emit`, and a method's `context.page`, bound to its page load.
final class OutboundCalls: Sendable {
    private let components: KeystoneComponents
    private let hub: any OutboundHub
    /// The serializer as it moves `Data` as parts; `nil` when it writes `Data` its own way.
    private let partsSerializer: (any BytePartsSerializer)?
    /// The page the calls go to, of the Keystone's.
    let pageID: PageID

    init(components: KeystoneComponents, hub: any OutboundHub, partsSerializer: (any BytePartsSerializer)?, page: PageID = .first) {
        self.components = components
        self.hub = hub
        self.partsSerializer = partsSerializer
        pageID = page
    }

    /// A call whose answer nobody waits for, in order with every other call.
    func post(_ method: String, arguments: [any Encodable & Sendable]) throws(BridgeError) {
        let (text, parts) = try encodeArguments(arguments)
        hub.post(method: method, arguments: text, parts: parts)
    }

    /// A call for the page load `pageLoad` (`nil`: whichever is current), in its subframe document
    /// `frame` (`nil`: the main frame): the one way every Swift call of a page handler is made. A
    /// task cancelled before it makes the call never makes it. A `durable` call, which only the
    /// Keystone's own calls make (`pageLoad` and `frame` are `nil`), goes again to each next
    /// document of its origin until one answers it, under an id of 128 random bits; its `Data`
    /// goes as any call's does, each document it goes to fetching it anew.
    func start<Result: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], as: Result.Type, to pageLoad: PageLoad?, frame: FrameDocument? = nil,
        durable: Bool = false
    ) -> PageCall<Result> {
        let call = PageCall<Result>()
        guard !Task.isCancelled else {
            call.settle(.failure(BridgeError(code: .cancelled, message: "the call was cancelled")))
            return call
        }
        let (text, parts): (JSONText, ByteParts?)
        do {
            (text, parts) = try encodeArguments(arguments)
        } catch {
            call.settle(.failure(error))
            return call
        }
        let serializer = components.serializer
        let pending = PageHandlerCall(
            receive: { answer, _ in call.settle(answer.decode(as: Result.self, serializer: serializer, method: method)) },
            fail: { call.settle(.failure($0)) }
        )
        let durableID = durable ? DurableID.next() : nil
        if let id = hub.makeCall(pending, method: method, arguments: text, parts: parts, isMultiResponse: false, to: pageLoad, frame: frame, durableID: durableID) {
            call.onCancel { [weak hub] in hub?.cancelCall(id: id) }
        }
        return call
    }

    /// A stream for the page load `pageLoad` (`nil`: whichever is current), in its subframe document
    /// `frame` (`nil`: the main frame).
    func stream<Element: Decodable & Sendable>(
        _ method: String, arguments: [any Encodable & Sendable], of: Element.Type, to pageLoad: PageLoad?, frame: FrameDocument? = nil
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let (text, parts): (JSONText, ByteParts?)
        do {
            (text, parts) = try encodeArguments(arguments)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let serializer = components.serializer
        let pending = PageHandlerCall(
            receive: { answer, complete in
                switch answer.decode(as: Element.self, serializer: serializer, method: method) {
                case .success(let element):
                    continuation.yield(element)
                    if complete { continuation.finish() }
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            },
            fail: { continuation.finish(throwing: $0) }
        )
        guard let id = hub.makeCall(pending, method: method, arguments: text, parts: parts, isMultiResponse: true, to: pageLoad, frame: frame, durableID: nil)
        else { return stream }
        continuation.onTermination = { [weak hub] _ in hub?.cancelCall(id: id) }
        return stream
    }

    /// An event for the page load `pageLoad` (`nil`: whichever is current), in its subframe document
    /// `frame` (`nil`: the main frame).
    func emit(_ name: String, _ value: some Encodable & Sendable, to pageLoad: PageLoad?, frame: FrameDocument? = nil) throws(BridgeError) {
        let (encoded, parts) = try encode(value, in: "the event's value")
        let event = PageMessage.event(name: name, value: try JSONText(validating: encoded))
        guard hub.emit(event, parts: parts, to: pageLoad, frame: frame) else {
            throw parts == nil
                ? BridgeError(code: .pageGone, message: "the page that made the call has gone")
                : BridgeError(code: .limitExceeded, message: "the event's bytes do not fit beside what the page load holds, or the page has gone")
        }
    }

    /// Takes `_dsb.returnValue` from the page's document `frame` (`nil`: the main frame), as the wire
    /// split it: settles or feeds the call it answers, when that call was made to this document.
    func receiveReturnValue(_ message: ReturnMessage, from frame: FrameDocument? = nil) {
        switch hub.receiveAnswer(id: message.id, complete: message.complete, undelivered: message.isUndelivered, from: frame) {
        case .deliver(let call, let complete):
            call.receive(message.answer, complete)
        case .goesOn:
            components.logging.log(.debug, "the page could not take durable call \(message.id): it goes to the next document")
        case .repeated(let method):
            components.logging.log(.warning, "the page's handler \"\(method)\" answered call \(message.id) again: a call keeps its first answer; use stream for every answer")
        case .unknown:
            components.logging.log(.debug, "dropped an answer for call \(message.id), which nobody waits for")
        }
    }

    /// `[a,b,c]` from the arguments, each encoded by the serializer, checked to be JSON before it
    /// can reach a script, and the parts of their values: every `Data` in them, under one marker.
    /// - Throws: `unencodableValue` when an argument does not encode; `limitExceeded` for parts past
    ///   ``BridgeLimits/transferBytes``.
    private func encodeArguments(_ arguments: [any Encodable & Sendable]) throws(BridgeError) -> (JSONText, ByteParts?) {
        var text = Data("[".utf8)
        var parts: ByteParts?
        for (index, argument) in arguments.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            let (json, argumentParts) = try encode(argument, in: "an argument")
            if let argumentParts, parts != nil {
                text.append(parts!.append(argumentParts, from: json))
            } else {
                if argumentParts != nil { parts = argumentParts }
                text.append(json)
            }
        }
        text.append(UInt8(ascii: "]"))
        let limit = components.limits.transferBytes
        if let parts, parts.byteCount > limit {
            throw BridgeError(code: .limitExceeded, message: "the arguments' bytes are more than BridgeLimits.transferBytes (\(limit) bytes)")
        }
        return (try JSONText(validating: text), parts)
    }

    /// A value as the serializer writes it, each `Data` in it a part where the serializer moves
    /// them (`place` says what the value is, for the error).
    private func encode(_ value: some Encodable, in place: String) throws(BridgeError) -> (Data, ByteParts?) {
        do {
            if let partsSerializer { return try partsSerializer.encodeMovingParts(value) }
            return (try components.serializer.encode(value), nil)
        } catch {
            throw BridgeError(code: .unencodableValue, message: describeEncodingFailure(error, in: place), cause: error)
        }
    }
}
