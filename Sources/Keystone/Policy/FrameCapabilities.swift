// FrameCapabilities.swift — unguessable names a host hands to its documents' relays, each standing
// for the frame and origin the engine showed when it was issued.

/// The capabilities a host has issued: each an unguessable 128-bit name standing for the frame and
/// origin the engine showed when a document's relay asked for it.
///
/// A host whose engine names no caller for a call (WebKitGTK) learns the frame and origin once per
/// document, from a script world the page cannot reach, and hands the document's relay a
/// capability for them. The relay then calls the host directly, prefixing the capability, and the
/// host knows the caller without a trip through that world on every call. A capability is only as
/// good as its holder's discretion: a document that gave its capability away could as well have
/// made the calls for the taker, so holding one grants nothing its document could not already do.
///
/// At most ``capacity`` capabilities are remembered; issuing one more forgets the oldest, and a
/// relay whose capability is forgotten asks for a new one. A plain value for one thread: the host
/// keeps it on the thread that hears the engine.
package struct FrameCapabilities {
    /// A capability, as 128 random bits.
    package struct Name: Hashable, Sendable {
        let high: UInt64
        let low: UInt64
    }

    /// How many characters a capability is written with: 32 lowercase hexadecimal digits.
    package static let length = 32
    /// The most capabilities remembered at once.
    package let capacity: Int
    private var frames: [Name: CallerFrame] = [:]
    /// The names in the order they were issued, as a ring whose oldest is at `oldest`.
    private var issued: [Name] = []
    private var oldest = 0

    /// Creates an empty set that remembers at most `capacity` capabilities (at least one).
    package init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// How many capabilities are remembered.
    package var count: Int { frames.count }

    /// Issues a new capability for `frame`, forgetting the oldest when ``capacity`` are remembered,
    /// and returns it as written on the wire.
    package mutating func issue(for frame: CallerFrame, using generator: inout some RandomNumberGenerator) -> String {
        var name = Name(high: generator.next(), low: generator.next())
        while frames[name] != nil { name = Name(high: generator.next(), low: generator.next()) }
        if issued.count < capacity {
            issued.append(name)
        } else {
            frames[issued[oldest]] = nil
            issued[oldest] = name
            oldest = (oldest + 1) % capacity
        }
        frames[name] = frame
        return Self.hex(name.high) + Self.hex(name.low)
    }

    /// Issues a new capability for `frame` from the system's random numbers.
    package mutating func issue(for frame: CallerFrame) -> String {
        var generator = SystemRandomNumberGenerator()
        return issue(for: frame, using: &generator)
    }

    /// The frame the capability written as `text` (its UTF-8 bytes) stands for; `nil` when `text`
    /// is not a capability this set remembers.
    package func frame(for text: UnsafeBufferPointer<UInt8>) -> CallerFrame? {
        guard text.count == Self.length else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for offset in 0..<Self.length {
            let byte = text[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            if offset < 16 { high = high << 4 | UInt64(digit) } else { low = low << 4 | UInt64(digit) }
        }
        return frames[Name(high: high, low: low)]
    }

    /// The frame the capability written as `text` stands for; `nil` when `text` is not a
    /// capability this set remembers.
    package func frame(for text: String) -> CallerFrame? {
        var text = text
        return text.withUTF8 { frame(for: $0) }
    }

    /// Forgets every capability: the documents that held them are gone.
    package mutating func removeAll() {
        frames.removeAll()
        issued.removeAll()
        oldest = 0
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
