// AppOrigin.swift — the app's own web files, served at an origin of the app's own scheme: what a
// host's scheme handler answers each request with, decided once for every host.
import Foundation
import Keystone

/// A folder of the app's own web files, served at an origin of a scheme of the app's own
/// (`app://localhost` by default), so the app's pages load as ordinary pages of a real origin rather
/// than from `file://`, whose opaque origin no policy can tell apart from any other file.
///
/// A host serves it (`HostOptions/appOrigin` on WebKitGTK, `WKWebViewHost.serveApp(_:in:)` on Apple
/// systems) and the app loads ``url(_:)`` (its `index.html`). Each request is answered by
/// ``respond(method:url:range:)``:
/// - `GET` and `HEAD` only; a file's type comes from its extension, sent with
///   `X-Content-Type-Options: nosniff`, and the ``contentSecurityPolicy`` the app set, on every file;
/// - a single `Range` (`bytes=a-b`, `a-`, `-n`) answers `206` with that part of the file, one past
///   the end `416`; several ranges, or a range that does not parse, answer the whole file;
/// - a file's bytes are read from disk as the engine takes them, never whole;
/// - with ``fallsBackToIndex`` (a single-page app's router), a path that names no file and has no
///   extension answers `index.html`;
/// - nothing outside ``folder`` is ever served: a path with `..` or `.` parts, empty parts, a
///   backslash, NUL or a control character, a percent-encoded slash, backslash, dot or NUL, a part
///   that begins with a dot, longer than ``maximumPathBytes``, or that reaches a file through a
///   symbolic link leading out of the folder, answers the same `404` as a file that is not there,
///   which says nothing of the file system.
///
/// The scheme and host make the origin the app's pages keep their storage under (`localStorage`,
/// IndexedDB): keep them the same from one version of the app to the next.
public struct AppOrigin: Sendable, Hashable {
    /// The scheme the app's files are served under by default: `app`, which no engine loads on its
    /// own, and which is not Keystone's byte channel (`keystone`).
    public static let defaultScheme = "app"
    /// The longest path a request may name, in UTF-8 bytes.
    public static let maximumPathBytes = 1024

    /// The folder whose files are served; nothing outside it is.
    public var folder: URL
    /// The scheme, lowercase letters, digits, `+`, `-` and `.`, beginning with a letter; never
    /// `http`, `https`, `file` or another scheme the engine loads itself, nor `keystone`.
    public var scheme: String
    /// The origin's host (`localhost` by default).
    public var host: String
    /// The `Content-Security-Policy` sent with every file (`nil`: none).
    public var contentSecurityPolicy: String?
    /// Whether a path that names no file and has no extension answers `index.html`, for a
    /// single-page app whose router owns its paths. Off by default.
    public var fallsBackToIndex: Bool

    /// Serves `folder` at `scheme://host`; each parameter sets the property of the same name.
    public init(
        folder: URL, scheme: String = AppOrigin.defaultScheme, host: String = "localhost", contentSecurityPolicy: String? = nil,
        fallsBackToIndex: Bool = false
    ) {
        self.folder = folder
        self.scheme = scheme
        self.host = host
        self.contentSecurityPolicy = contentSecurityPolicy
        self.fallsBackToIndex = fallsBackToIndex
    }

    /// The origin, as engines write it: `app://localhost`.
    public var origin: String { "\(scheme)://\(host)" }

    /// The address of `path` inside the folder (`index.html` by default), for the app to load.
    public func url(_ path: String = "index.html") -> URL {
        let trimmed = path.drop { $0 == "/" }
        return URL(string: "\(origin)/\(trimmed)") ?? URL(string: "\(origin)/")!
    }

    /// The schemes an engine loads on its own, or Keystone's byte channel uses: never an app's.
    static let reservedSchemes: Set<String> = [
        "http", "https", "file", "about", "data", "blob", "javascript", "ws", "wss", "ftp", "filesystem", "webkit", "resource",
        URLSchemeTransport.scheme,
    ]

    /// Checks the scheme and host: what a host does before registering the scheme.
    /// - Throws: `invalidRegistration` naming what is wrong.
    public func check() throws(BridgeError) {
        let letters = scheme.utf8
        guard let first = letters.first, (0x61...0x7A).contains(first),
            letters.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            throw BridgeError(code: .invalidRegistration, message: "an app origin's scheme is lowercase letters, digits, +, - and ., beginning with a letter")
        }
        guard !Self.reservedSchemes.contains(scheme) else {
            throw BridgeError(code: .invalidRegistration, message: "the scheme \"\(scheme)\" is the engine's own or Keystone's byte channel's")
        }
        guard !host.isEmpty, host.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            throw BridgeError(code: .invalidRegistration, message: "an app origin's host is lowercase letters, digits, - and .")
        }
    }
}
