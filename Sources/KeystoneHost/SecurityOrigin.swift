// SecurityOrigin.swift — an origin as the engine's security model has it: scheme, host and port.
import Foundation
import Keystone

/// A document's origin as the engine's security model defines it: scheme, host and port, with a
/// scheme's default port left out (`https://a.example`, `http://127.0.0.1:8772`, `file://`).
///
/// An opaque origin — a sandboxed frame, a `data:` document, whatever the engine reports as
/// `"null"` — is no origin at all: ``init(_:)`` returns `nil` for it, and hosts report such a
/// frame with no origin, which no allow-list or namespace rule matches.
public struct SecurityOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lowercased (`https`).
    public let scheme: String
    /// The host, lowercased; empty for `file://`.
    public let host: String
    /// The port, or `nil` for the scheme's default (80 for `http` and `ws`, 443 for `https` and
    /// `wss`) or a scheme that has none.
    public let port: Int?

    /// The origin of `scheme`, `host` and `port` as an engine reports them (`port` 0 or `nil` for
    /// the default); `nil` for an opaque origin (an empty scheme, or an empty host where the scheme
    /// needs one).
    public init?(scheme: String, host: String, port: Int?) {
        let scheme = scheme.lowercased()
        let host = host.lowercased()
        guard !scheme.isEmpty, !host.isEmpty || scheme == "file", port.map({ (0...65_535).contains($0) }) ?? true else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port == 0 || port == Self.defaultPorts[scheme] ? nil : port
    }

    /// Reads `scheme://host[:port]`, as `self.origin` and `WKSecurityOrigin` describe an origin;
    /// `nil` for `"null"` (opaque) and for anything else that is not an origin: a path, a query,
    /// credentials, a wildcard, or a port that is not a number from 1 to 65535.
    public init?(_ text: String) {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        var authority = text[separator.upperBound...]
        guard !scheme.isEmpty, scheme.utf8.allSatisfy(Self.isSchemeByte), scheme.utf8.first.map(Self.isLetter) ?? false else { return nil }
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            let digits = authority[authority.index(after: colon)...]
            guard (1...5).contains(digits.count), digits.utf8.allSatisfy({ (48...57).contains($0) }), let number = Int(digits), number > 0, number <= 65_535 else {
                return nil
            }
            port = number
            authority = authority[..<colon]
        }
        guard authority.utf8.allSatisfy(Self.isHostByte) else { return nil }
        self.init(scheme: String(scheme), host: String(authority), port: port)
    }

    public var description: String {
        "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    private static let defaultPorts = ["http": 80, "https": 443, "ws": 80, "wss": 443]

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    /// A host's bytes: anything printable but what ends or decorates a host (`/ ? # @ *`, white
    /// space), IPv6 brackets and colons allowed.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte != 0x7F && !"/?#@*\\".utf8.contains(byte)
    }
}
