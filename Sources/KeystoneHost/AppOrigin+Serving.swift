// AppOrigin+Serving.swift — answering one request of the app's origin: the path read strictly, the
// file found inside the folder, its type, and the range asked for.
import Foundation
import Keystone

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AppOrigin {
    /// Answers one request of the app's origin: `method` and the full `url` as the engine reports
    /// them, and its `Range` header (`nil`: none). Reads nothing but the file system's metadata: a
    /// file's bytes are read as the host hands them on (``AppFileResponse/read(chunkBytes:_:)``).
    public func respond(method: String, url: String, range: String?) -> AppFileResponse {
        guard method == "GET" || method == "HEAD" else { return .refusal(405, allow: true) }
        guard let parts = pathParts(of: url), let found = file(at: parts) else { return .refusal(404) }
        var response = answer(found, range: range)
        if method == "HEAD" { response.body = .bytes(Data()) }
        return response
    }

    /// A file found: its path inside the folder, resolved, and its size.
    struct Found {
        var path: String
        var size: Int
    }

    /// The parts of the path `url` names, each percent-decoded and checked, or `nil` when the
    /// address is not this origin's or its path could leave the folder. The last part is empty
    /// for a path ending in `/`.
    func pathParts(of url: String) -> [String]? {
        let prefix = origin.utf8
        let bytes = Array(url.utf8)
        guard bytes.count >= prefix.count, zip(bytes, prefix).allSatisfy({ Self.lowercased($0) == $1 }) else { return nil }
        var path = bytes[prefix.count...]
        if let end = path.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { path = path[..<end] }
        if path.isEmpty { return [""] }
        guard path.first == UInt8(ascii: "/"), path.count <= Self.maximumPathBytes else { return nil }
        var parts: [String] = []
        for raw in path.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let part = Self.decoded(raw) else { return nil }
            parts.append(part)
        }
        // Only the last part may be empty: `a//b` names nothing.
        guard parts.dropLast().allSatisfy({ !$0.isEmpty }) else { return nil }
        return parts
    }

    /// A path part percent-decoded, or `nil` when it is `.`-led (`.`, `..`, a hidden file), holds a
    /// backslash, NUL or control character (raw or encoded), an encoded `/` or `.`, a `%` that does
    /// not begin an escape, or bytes that are not UTF-8.
    private static func decoded(_ raw: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            var byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.endIndex, let high = hex(raw[index + 1]), let low = hex(raw[index + 2]) else { return nil }
                byte = high << 4 | low
                // An encoded slash, backslash or dot is never a name's: it is a way around the checks.
                guard byte != UInt8(ascii: "/"), byte != UInt8(ascii: "."), byte != UInt8(ascii: "%") else { return nil }
                index += 3
            } else {
                index += 1
            }
            guard byte >= 0x20, byte != 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            bytes.append(byte)
        }
        guard bytes.first != UInt8(ascii: ".") else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// The regular file `parts` names inside the folder (a folder's `index.html`; with
    /// ``fallsBackToIndex``, the folder's own `index.html` for a path without an extension that
    /// names nothing), its path resolved and still inside the folder.
    func file(at parts: [String]) -> Found? {
        guard let root = Self.resolved(folder.path) else { return nil }
        let named = ([root] + parts.filter { !$0.isEmpty }).joined(separator: "/")
        let found = parts.last == "" || Self.isDirectory(named) ? Self.regularFile(named + "/index.html", inside: root) : Self.regularFile(named, inside: root)
        if let found { return found }
        guard fallsBackToIndex, let last = parts.last, !last.contains(".") else { return nil }
        return Self.regularFile(root + "/index.html", inside: root)
    }

    /// The file at `path` when it is a regular file whose resolved path is inside `root`.
    private static func regularFile(_ path: String, inside root: String) -> Found? {
        guard let real = resolved(path), real.hasPrefix(root + "/") else { return nil }
        var status = stat()
        guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Found(path: real, size: Int(status.st_size))
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// `path` with every symbolic link and `.`/`..` resolved, or `nil` when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The answer for `found`: the whole file, or the one range asked for.
    func answer(_ found: Found, range: String?) -> AppFileResponse {
        var headers = [
            AppFileResponse.Header(name: "Content-Type", value: Self.contentType(of: found.path)),
            AppFileResponse.Header(name: "X-Content-Type-Options", value: "nosniff"),
            AppFileResponse.Header(name: "Accept-Ranges", value: "bytes"),
            AppFileResponse.Header(name: "Cache-Control", value: "no-cache"),
        ]
        if let contentSecurityPolicy { headers.append(AppFileResponse.Header(name: "Content-Security-Policy", value: contentSecurityPolicy)) }
        switch range.map({ Self.range($0, size: found.size) }) ?? .whole {
        case .whole:
            headers.append(AppFileResponse.Header(name: "Content-Length", value: String(found.size)))
            return AppFileResponse(status: 200, headers: headers, body: .file(path: found.path, offset: 0, length: found.size))
        case .part(let first, let last):
            headers.append(AppFileResponse.Header(name: "Content-Length", value: String(last - first + 1)))
            headers.append(AppFileResponse.Header(name: "Content-Range", value: "bytes \(first)-\(last)/\(found.size)"))
            return AppFileResponse(status: 206, headers: headers, body: .file(path: found.path, offset: first, length: last - first + 1))
        case .unsatisfiable:
            headers.append(AppFileResponse.Header(name: "Content-Length", value: "0"))
            headers.append(AppFileResponse.Header(name: "Content-Range", value: "bytes */\(found.size)"))
            return AppFileResponse(status: 416, headers: headers, body: .bytes(Data()))
        }
    }

    /// What a `Range` header asks of a file of `size` bytes.
    enum RangeAsked: Equatable {
        /// No single range that parses: the whole file.
        case whole
        /// The bytes `first` through `last`, both included.
        case part(first: Int, last: Int)
        /// A range that begins past the end.
        case unsatisfiable
    }

    /// Reads `bytes=a-b`, `bytes=a-` or `bytes=-n` (at most 18 digits a number); anything else,
    /// several ranges included, is the whole file.
    static func range(_ header: String, size: Int) -> RangeAsked {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let (start, end) = (spec[..<dash], spec[spec.index(after: dash)...])
        func number(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(digits)
        }
        switch (number(start), end.isEmpty ? nil : number(end)) {
        case (let first?, nil) where end.isEmpty:
            return first < size ? .part(first: first, last: size - 1) : .unsatisfiable
        case (let first?, let last?):
            guard first <= last else { return .whole }
            return first < size ? .part(first: first, last: min(last, size - 1)) : .unsatisfiable
        case (nil, let suffix?) where start.isEmpty:
            guard suffix > 0 else { return .unsatisfiable }
            return size > 0 ? .part(first: max(0, size - suffix), last: size - 1) : .unsatisfiable
        default:
            return .whole
        }
    }

    /// The type of a file, from its extension; `application/octet-stream` for any other.
    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        return contentTypes[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "json": "application/json",
        "map": "application/json", "webmanifest": "application/manifest+json", "txt": "text/plain; charset=utf-8",
        "xml": "application/xml", "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon", "bmp": "image/bmp",
        "wasm": "application/wasm", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "ogv": "video/ogg",
        "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "mp3": "audio/mpeg", "m4a": "audio/mp4",
        "aac": "audio/aac", "wav": "audio/wav", "flac": "audio/flac", "vtt": "text/vtt; charset=utf-8",
        "pdf": "application/pdf", "csv": "text/csv; charset=utf-8", "md": "text/markdown; charset=utf-8",
    ]
}
