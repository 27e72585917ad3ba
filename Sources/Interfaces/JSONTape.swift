// JSONTape.swift — JSON text parsed once into a flat list of nodes that decoding walks.
import Foundation

/// One JSON text parsed into nodes, in document order, without building any value.
///
/// A scalar node records where its bytes are; a container node records how many members it has and
/// where its subtree ends, so a decoder can step over a whole member without looking inside it. An
/// object's children are its keys and values, alternating. Parsing is one pass with a heap stack
/// (never recursion), validates UTF-8 inside strings, and refuses nesting deeper than a bound.
package struct JSONTape {
    package enum Kind: UInt8 {
        case null, `true`, `false`, number, string, escapedString, array, object
    }

    package struct Node {
        package var kind: Kind
        /// Scalars: the first byte of the value (for strings, after the opening quote).
        package var start: UInt32
        /// Scalars: the number of bytes (strings without quotes). Containers: the number of members.
        package var count: UInt32
        /// The index of the node that follows this one's subtree.
        package var end: UInt32
    }

    /// Why a text is not one JSON value.
    package enum Fault: Error, Equatable {
        /// The grammar breaks at `offset`.
        case invalid(offset: Int)
        /// Containers nest deeper than `limit`.
        case tooDeep(limit: Int)
        /// The text is longer than a tape can address.
        case tooLong

        package var description: String {
            switch self {
            case .invalid(let offset): "the text is not valid JSON (at byte \(offset))"
            case .tooDeep(let limit): "the text nests arrays and objects deeper than \(limit) levels"
            case .tooLong: "the text is too long to parse"
            }
        }
    }

    package private(set) var nodes: [Node] = []

    /// Parses `bytes`, which must hold exactly one JSON value (white space around it allowed).
    package init(parsing bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws(Fault) {
        guard bytes.count < Int(UInt32.max) else { throw .tooLong }
        var parser = Parser(bytes: bytes, maximumDepth: maximumDepth)
        try parser.parse()
        nodes = parser.nodes
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let maximumDepth: Int
        var index = 0
        var nodes: [Node] = []
        /// The containers still open, innermost last.
        var open: [Int] = []

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
            self.bytes = bytes
            self.maximumDepth = maximumDepth
            nodes.reserveCapacity(max(4, bytes.count / 8))
        }

        var fault: Fault { .invalid(offset: index) }

        mutating func parse() throws(Fault) {
            skipSpace()
            while true {
                if try value() { continue }  // a container opened: its first member comes next
                // A value ended: close what closes, then expect the next member, or the end.
                while true {
                    guard let top = open.last else {
                        skipSpace()
                        guard index == bytes.count else { throw fault }
                        return
                    }
                    nodes[top].count += 1
                    skipSpace()
                    guard index < bytes.count else { throw fault }
                    let byte = bytes[index]
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        skipSpace()
                        if nodes[top].kind == .object { try key() }
                        break
                    }
                    guard byte == (nodes[top].kind == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")) else { throw fault }
                    index += 1
                    close(top)
                }
            }
        }

        /// One value at `index`. Returns `true` when it opened a non-empty container (and, for an
        /// object, read its first key): the container's first member is the next value.
        private mutating func value() throws(Fault) -> Bool {
            guard index < bytes.count else { throw fault }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[index] == UInt8(ascii: "{")
                guard open.count < maximumDepth else { throw .tooDeep(limit: maximumDepth) }
                let node = nodes.count
                nodes.append(Node(kind: isObject ? .object : .array, start: UInt32(start), count: 0, end: 0))
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    nodes[node].end = UInt32(nodes.count)
                    return false
                }
                open.append(node)
                if isObject { try key() }
                return true
            case UInt8(ascii: "\""):
                try string()
                return false
            default:
                break
            }
            let kind: Kind
            switch bytes[index] {
            case UInt8(ascii: "t"):
                try word("true")
                kind = .true
            case UInt8(ascii: "f"):
                try word("false")
                kind = .false
            case UInt8(ascii: "n"):
                try word("null")
                kind = .null
            default:
                try number()
                kind = .number
            }
            nodes.append(Node(kind: kind, start: UInt32(start), count: UInt32(index - start), end: UInt32(nodes.count + 1)))
            return false
        }

        private mutating func close(_ container: Int) {
            nodes[container].end = UInt32(nodes.count)
            open.removeLast()
        }

        /// `"key"` then `:`, leaving `index` at the member's value.
        private mutating func key() throws(Fault) {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fault }
            try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fault }
            index += 1
            skipSpace()
        }

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func word(_ word: StaticString) throws(Fault) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw fault }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw fault }
            index += count
        }

        /// A string whose opening quote is at `index`: escapes checked, UTF-8 validated.
        private mutating func string() throws(Fault) {
            index += 1
            let start = index
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    nodes.append(Node(kind: escaped ? .escapedString : .string, start: UInt32(start), count: UInt32(index - start), end: UInt32(nodes.count + 1)))
                    index += 1
                    return
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                    guard index < bytes.count else { throw fault }
                    switch bytes[index] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        guard index + 4 < bytes.count else { throw fault }
                        for offset in 1...4 where hexValue(bytes[index + offset]) == nil { throw fault }
                        index += 5
                    default:
                        throw fault
                    }
                } else if byte < 0x20 {
                    throw fault
                } else if byte < 0x80 {
                    index += 1
                } else {
                    try multiByteCharacter()
                }
            }
            throw fault
        }

        /// One well-formed UTF-8 sequence of two to four bytes (no overlongs, no surrogates).
        private mutating func multiByteCharacter() throws(Fault) {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: throw fault
            }
            guard index + length <= bytes.count else { throw fault }
            guard (low...high).contains(bytes[index + 1]) else { throw fault }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { throw fault }
            index += length
        }

        private mutating func number() throws(Fault) {
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fault }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                skipDigits()
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw fault }
                skipDigits()
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw fault }
                skipDigits()
            }
        }

        private mutating func skipDigits() {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    }
}

/// The value of a hexadecimal digit, or `nil`.
@inline(__always)
package func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte &- 0x30)
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte &- 0x57)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte &- 0x37)
    default: nil
    }
}
