// AppFileResponse.swift — what a request of the app's origin is answered with, and reading a file's
// bytes as the engine takes them.
import Foundation
import Keystone

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The answer to one request of an ``AppOrigin``: a status, headers, and a body that is either a
/// few bytes or a part of a file, read as the engine takes it.
public struct AppFileResponse: Sendable, Hashable {
    /// 200, 206, 404, 405 or 416.
    public var status: Int
    /// Every header, `Content-Type` and `Content-Length` included.
    public var headers: [Header]
    /// The body.
    public var body: Body

    /// One header.
    public struct Header: Sendable, Hashable {
        /// The header's name, as it is sent (`Content-Type`).
        public var name: String
        /// The header's value.
        public var value: String
    }

    /// What the body is.
    public enum Body: Sendable, Hashable {
        /// These bytes (a refusal's text; nothing for `HEAD`).
        case bytes(Data)
        /// `length` bytes of the file at `path`, from `offset`.
        case file(path: String, offset: Int, length: Int)
    }

    /// The value of the header `name` (compared without case), if there is one.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body's length in bytes.
    public var bodyLength: Int {
        switch body {
        case .bytes(let data): data.count
        case .file(_, _, let length): length
        }
    }

    /// The status's reason phrase.
    public var reason: String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 416: "Range Not Satisfiable"
        default: "Error"
        }
    }

    /// The bytes of a body small enough to hand over at once (at most `limit`), read now; `nil` for
    /// a larger one, which a host streams with ``read(chunkBytes:_:)``.
    public func bytes(atMost limit: Int) -> Data? {
        switch body {
        case .bytes(let data): return data
        case .file(let path, let offset, let length):
            guard length <= limit else { return nil }
            var whole = Data()
            whole.reserveCapacity(length)
            let complete = Self.read(path: path, offset: offset, length: length, chunkBytes: max(length, 1)) {
                whole.append($0)
                return true
            }
            return complete ? whole : nil
        }
    }

    /// Hands the body to `take` in pieces of at most `chunkBytes`, in order, reading the file as it
    /// goes; stops early when `take` returns `false`. Whether every byte was read and taken (a
    /// file that shrank or cannot be read stops it).
    @discardableResult
    public func read(chunkBytes: Int = 256 << 10, _ take: (Data) -> Bool) -> Bool {
        switch body {
        case .bytes(let data): return data.isEmpty || take(data)
        case .file(let path, let offset, let length): return Self.read(path: path, offset: offset, length: length, chunkBytes: chunkBytes, take)
        }
    }

    private static func read(path: String, offset: Int, length: Int, chunkBytes: Int, _ take: (Data) -> Bool) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var position = offset
        var left = length
        var buffer = [UInt8](repeating: 0, count: max(1, min(chunkBytes, length)))
        while left > 0 {
            let want = min(left, buffer.count)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(position)) }
            guard count > 0 else { return false }
            guard take(Data(buffer[..<count])) else { return false }
            position += count
            left -= count
        }
        return true
    }

    /// The answer to a request for nothing the app serves: the same as for a file that is not there.
    public static let notFound = refusal(404)

    static func refusal(_ status: Int, allow: Bool = false) -> AppFileResponse {
        let text = Data((status == 405 ? "method not allowed" : "not found").utf8)
        var headers = [
            Header(name: "Content-Type", value: "text/plain; charset=utf-8"), Header(name: "Content-Length", value: String(text.count)),
            Header(name: "X-Content-Type-Options", value: "nosniff"), Header(name: "Cache-Control", value: "no-store"),
        ]
        if allow { headers.append(Header(name: "Allow", value: "GET, HEAD")) }
        return AppFileResponse(status: status, headers: headers, body: .bytes(text))
    }
}
