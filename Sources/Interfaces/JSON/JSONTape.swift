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

    /// The structure of the text as nodes; the grammar of each scalar is the scanner's.
    private struct Parser {
        let maximumDepth: Int
        var scanner: JSONGrammar.Scanner
        var nodes: [Node] = []
        /// The containers still open, innermost last.
        var open: [Int] = []

        init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
            self.maximumDepth = maximumDepth
            self.scanner = JSONGrammar.Scanner(bytes: bytes)
            nodes.reserveCapacity(max(4, bytes.count / 8))
        }

        var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }
        var fault: Fault { .invalid(offset: scanner.index) }

        mutating func parse() throws(Fault) {
            scanner.skipSpace()
            while true {
                if try value() { continue }  // a container opened: its first member comes next
                // A value ended: close what closes, then expect the next member, or the end.
                while true {
                    guard let top = open.last else {
                        scanner.skipSpace()
                        guard scanner.index == bytes.count else { throw fault }
                        return
                    }
                    nodes[top].count += 1
                    scanner.skipSpace()
                    guard scanner.index < bytes.count else { throw fault }
                    let byte = bytes[scanner.index]
                    if byte == UInt8(ascii: ",") {
                        scanner.index += 1
                        scanner.skipSpace()
                        if nodes[top].kind == .object { try key() }
                        break
                    }
                    guard byte == (nodes[top].kind == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")) else { throw fault }
                    scanner.index += 1
                    nodes[top].end = UInt32(nodes.count)
                    open.removeLast()
                }
            }
        }

        /// One value at the scanner's index. Returns `true` when it opened a non-empty container
        /// (and, for an object, read its first key): the container's first member is the next value.
        private mutating func value() throws(Fault) -> Bool {
            guard scanner.index < bytes.count else { throw fault }
            let start = scanner.index
            let kind: Kind
            switch bytes[start] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[start] == UInt8(ascii: "{")
                guard open.count < maximumDepth else { throw .tooDeep(limit: maximumDepth) }
                let node = nodes.count
                nodes.append(Node(kind: isObject ? .object : .array, start: UInt32(start), count: 0, end: 0))
                scanner.index += 1
                scanner.skipSpace()
                if scanner.peek(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    scanner.index += 1
                    nodes[node].end = UInt32(nodes.count)
                    return false
                }
                open.append(node)
                if isObject { try key() }
                return true
            case UInt8(ascii: "\""):
                try string()
                return false
            case UInt8(ascii: "t"):
                guard scanner.scanWord("true") else { throw fault }
                kind = .true
            case UInt8(ascii: "f"):
                guard scanner.scanWord("false") else { throw fault }
                kind = .false
            case UInt8(ascii: "n"):
                guard scanner.scanWord("null") else { throw fault }
                kind = .null
            default:
                guard scanner.scanNumber() else { throw fault }
                kind = .number
            }
            nodes.append(Node(kind: kind, start: UInt32(start), count: UInt32(scanner.index - start), end: UInt32(nodes.count + 1)))
            return false
        }

        /// `"key"` then `:`, leaving the index at the member's value.
        private mutating func key() throws(Fault) {
            guard scanner.peek(UInt8(ascii: "\"")) else { throw fault }
            try string()
            scanner.skipSpace()
            guard scanner.peek(UInt8(ascii: ":")) else { throw fault }
            scanner.index += 1
            scanner.skipSpace()
        }

        /// A string node for the string whose opening quote is at the scanner's index.
        private mutating func string() throws(Fault) {
            let start = scanner.index + 1
            guard scanner.scanString() else { throw fault }
            let kind: Kind = scanner.stringHadEscape ? .escapedString : .string
            nodes.append(Node(kind: kind, start: UInt32(start), count: UInt32(scanner.index - 1 - start), end: UInt32(nodes.count + 1)))
        }
    }
}
