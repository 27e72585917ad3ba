// DurableSwiftCalls.swift — Swift's durable calls of the page's handlers, as a pure value: what each
// keeps to go again to the next document, and the origin it is bound to.
import Foundation
import KeystoneEvaluator
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Swift's durable calls of the page's handlers (`call(…, durable: true)`), by their Swift call id,
/// without locks or side effects. The call itself (its way to settle, its answers) is an ordinary
/// open call of Swift's; this value keeps what lets it outlive its page load.
///
/// - A durable call is bound to the origin of the first document it goes to; a document of another
///   origin never gets it. One that first goes to a document without an origin is an ordinary call
///   from then on.
/// - When the page goes before answering, its message (and its arguments' parts, which each
///   document fetches anew) goes again to each next document of that origin, in the order the calls
///   were made, until one answers or Swift stops waiting.
struct DurableSwiftCalls: Sendable {
    /// What a durable call keeps to go again.
    struct Kept: Sendable {
        /// Its message, as each document gets it.
        var message: PageMessage
        /// The parts of its arguments.
        var parts: ByteParts?
        /// The origin of the first document it went to; `nil` until it has gone to one.
        var origin: String?
    }

    private var kept: [Int: Kept] = [:]

    /// Call `id`, sent as `message` with its arguments' `parts`, is durable.
    mutating func keep(id: Int, message: PageMessage, parts: ByteParts?) {
        kept[id] = Kept(message: message, parts: parts)
    }

    /// Whether call `id` is durable.
    func contains(_ id: Int) -> Bool {
        kept[id] != nil
    }

    /// Whether call `id` may go to a document of `origin`: any call but a durable one bound to
    /// another origin.
    func mayGo(id: Int, to origin: String?) -> Bool {
        guard let bound = kept[id]?.origin else { return true }
        return bound == origin
    }

    /// Call `id` went to a document of `origin`: a durable call is bound to it, or is an ordinary
    /// call from now on when the document has no origin.
    mutating func went(id: Int, to origin: String?) {
        guard kept[id] != nil else { return }
        if let origin {
            kept[id]?.origin = origin
        } else {
            kept[id] = nil
        }
    }

    /// Call `id` settled, or Swift stopped waiting for it.
    mutating func remove(_ id: Int) {
        kept[id] = nil
    }

    /// The page went: the durable calls still open (`isOpen`), in the order they were made, to wait
    /// for the next document; the others are let go.
    mutating func pageDidUnload(isOpen: (Int) -> Bool) -> [(id: Int, kept: Kept)] {
        kept = kept.filter { isOpen($0.key) }
        return kept.keys.sorted().compactMap { id in kept[id].map { (id, $0) } }
    }
}

/// Where the ids of durable calls come from, in both directions: a page's call of a method durable by
/// default, made without a key, and Swift's durable call, whose id the handler reads as
/// `responder.durable`. Each is 128 bits from the system's random source, so that a document can tell
/// one call from another across page loads and app launches.
enum DurableID {
    static func next() -> String {
        var generator = SystemRandomNumberGenerator()
        return RandomToken.hex128(using: &generator)
    }
}
