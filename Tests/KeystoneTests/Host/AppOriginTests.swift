// AppOriginTests.swift — the app's own files at its origin: types, ranges, the single-page app's
// fallback, and nothing outside the folder, as every host answers.
import Foundation
import Keystone
import KeystoneHost
import Testing

@Suite("The app's origin")
struct AppOriginTests {
    /// A folder of the app's files, and a secret beside it that no request may reach.
    final class Files {
        let root: URL
        let folder: URL

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("app-origin-\(UUID().uuidString)")
            folder = root.appendingPathComponent("www")
            let manager = FileManager.default
            try manager.createDirectory(at: folder.appendingPathComponent("docs"), withIntermediateDirectories: true)
            try manager.createDirectory(at: folder.appendingPathComponent("media"), withIntermediateDirectories: true)
            try Data("<!doctype html><title>app</title>".utf8).write(to: folder.appendingPathComponent("index.html"))
            try Data("docs".utf8).write(to: folder.appendingPathComponent("docs/index.html"))
            try Data("console.log(1)".utf8).write(to: folder.appendingPathComponent("app.js"))
            try Data("body{}".utf8).write(to: folder.appendingPathComponent("style.css"))
            try Data((0..<10).map { UInt8($0) }).write(to: folder.appendingPathComponent("media/ten.bin"))
            try Data("hidden".utf8).write(to: folder.appendingPathComponent(".env"))
            try Data("secret".utf8).write(to: root.appendingPathComponent("secret.txt"))
            try manager.createSymbolicLink(atPath: folder.appendingPathComponent("out.txt").path, withDestinationPath: root.appendingPathComponent("secret.txt").path)
            try manager.createSymbolicLink(atPath: folder.appendingPathComponent("up").path, withDestinationPath: root.path)
            try manager.createSymbolicLink(atPath: folder.appendingPathComponent("same.js").path, withDestinationPath: folder.appendingPathComponent("app.js").path)
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }
    }

    let files: Files
    let app: AppOrigin

    init() throws {
        files = try Files()
        app = AppOrigin(folder: files.folder, contentSecurityPolicy: "default-src 'self'")
    }

    func body(_ response: AppFileResponse) -> Data {
        var data = Data()
        response.read(chunkBytes: 3) {
            data.append($0)
            return true
        }
        return data
    }

    @Test func theIndexIsServedAtTheOriginWithItsTypeNosniffAndThePolicy() {
        for url in ["app://localhost", "app://localhost/", "app://localhost/index.html", "APP://LocalHost/index.html?x=1#top"] {
            let response = app.respond(method: "GET", url: url, range: nil)
            #expect(response.status == 200, "\(url)")
            #expect(response.header("content-type") == "text/html; charset=utf-8")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Content-Security-Policy") == "default-src 'self'")
            #expect(String(decoding: body(response), as: UTF8.self) == "<!doctype html><title>app</title>")
        }
        #expect(String(decoding: body(app.respond(method: "GET", url: "app://localhost/docs/", range: nil)), as: UTF8.self) == "docs")
        #expect(String(decoding: body(app.respond(method: "GET", url: "app://localhost/docs", range: nil)), as: UTF8.self) == "docs")
        #expect(app.url() == URL(string: "app://localhost/index.html"))
        #expect(app.origin == "app://localhost")
    }

    @Test func aFilesTypeComesFromItsExtension() {
        #expect(app.respond(method: "GET", url: "app://localhost/app.js", range: nil).header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(app.respond(method: "GET", url: "app://localhost/style.css", range: nil).header("Content-Type") == "text/css; charset=utf-8")
        #expect(app.respond(method: "GET", url: "app://localhost/media/ten.bin", range: nil).header("Content-Type") == "application/octet-stream")
        #expect(app.respond(method: "GET", url: "app://localhost/same.js", range: nil).status == 200)
    }

    @Test(
        arguments: [
            ("bytes=0-3", 206, "bytes 0-3/10", [0, 1, 2, 3]),
            ("bytes=7-", 206, "bytes 7-9/10", [7, 8, 9]),
            ("bytes=-2", 206, "bytes 8-9/10", [8, 9]),
            ("bytes=8-100", 206, "bytes 8-9/10", [8, 9]),
            ("bytes=10-", 416, "bytes */10", []),
            ("bytes=0-1,4-5", 200, nil, Array(0..<10)),
            ("bytes=5-2", 200, nil, Array(0..<10)),
            ("items=0-1", 200, nil, Array(0..<10)),
            ("bytes=x-1", 200, nil, Array(0..<10)),
        ] as [(String, Int, String?, [Int])])
    func aSingleRangeIsAnsweredWithItsPart(range: String, status: Int, contentRange: String?, bytes: [Int]) {
        let response = app.respond(method: "GET", url: "app://localhost/media/ten.bin", range: range)
        #expect(response.status == status)
        #expect(response.header("Content-Range") == contentRange)
        #expect(body(response) == Data(bytes.map { UInt8($0) }))
        #expect(response.header("Content-Length") == String(bytes.count))
        #expect(response.header("Accept-Ranges") == "bytes")
    }

    @Test func headSaysTheLengthAndSendsNothing() {
        let response = app.respond(method: "HEAD", url: "app://localhost/media/ten.bin", range: nil)
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "10")
        #expect(response.bodyLength == 0)
        let post = app.respond(method: "POST", url: "app://localhost/index.html", range: nil)
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
    }

    /// Every way out of the folder gets the same 404 as a file that is not there.
    @Test(arguments: [
        "app://localhost/../secret.txt", "app://localhost/%2e%2e/secret.txt", "app://localhost/%2E%2E/secret.txt",
        "app://localhost/docs/../../secret.txt", "app://localhost/docs%2f..%2f..%2fsecret.txt", "app://localhost/..%5csecret.txt",
        "app://localhost/..\\secret.txt", "app://localhost/index.html%00.js", "app://localhost/a%0ab", "app://localhost//etc/passwd",
        "app://localhost/./index.html", "app://localhost/.env", "app://localhost/%2eenv", "app://localhost/out.txt",
        "app://localhost/up/secret.txt", "app://localhost/%", "app://localhost/%zz", "app://localhost/%ff",
        "app://localhost/" + String(repeating: "a", count: 1100), "app://other/index.html", "http://localhost/index.html",
        "app://localhostx/index.html", "app:/localhost/index.html", "app://localhost/missing.html", "app://localhost/settings",
        "app://localhost/media/", "app://localhost" + FileManager.default.temporaryDirectory.path,
    ])
    func nothingOutsideTheFolderIsServed(url: String) {
        let response = app.respond(method: "GET", url: url, range: nil)
        #expect(response.status == 404, "\(url)")
        #expect(String(decoding: body(response), as: UTF8.self) == "not found")
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
    }

    @Test func aSinglePageAppsPathsFallBackToItsIndexWhenAsked() {
        var spa = app
        #expect(spa.respond(method: "GET", url: "app://localhost/settings/profile", range: nil).status == 404)
        spa.fallsBackToIndex = true
        let routed = spa.respond(method: "GET", url: "app://localhost/settings/profile", range: nil)
        #expect(routed.status == 200)
        #expect(String(decoding: body(routed), as: UTF8.self) == "<!doctype html><title>app</title>")
        #expect(spa.respond(method: "GET", url: "app://localhost/missing.js", range: nil).status == 404)
        #expect(spa.respond(method: "GET", url: "app://localhost/../secret", range: nil).status == 404)
    }

    @Test func aLargeFileIsReadInPiecesAsItIsTaken() throws {
        let big = Data((0..<(1 << 20) + 7).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try big.write(to: files.folder.appendingPathComponent("media/big.bin"))
        let response = app.respond(method: "GET", url: "app://localhost/media/big.bin", range: "bytes=1000-")
        #expect(response.bytes(atMost: 64 << 10) == nil)
        var pieces = 0
        var read = Data()
        #expect(
            response.read(chunkBytes: 64 << 10) { piece in
                pieces += 1
                read.append(piece)
                return true
            })
        #expect(read == big[1000...])
        #expect(pieces == (big.count - 1000 + (64 << 10) - 1) / (64 << 10))
        var taken = 0
        #expect(
            !response.read(chunkBytes: 1024) { _ in
                taken += 1
                return taken < 3
            })
        #expect(taken == 3)
    }

    @Test(arguments: ["http", "https", "file", "keystone", "App", "1app", "", "a b"])
    func anOriginsSchemeIsTheAppsOwn(scheme: String) {
        #expect(throws: BridgeError.self) { try AppOrigin(folder: URL(fileURLWithPath: "/"), scheme: scheme).check() }
    }

    @Test func theDefaultOriginPassesItsCheck() throws {
        try AppOrigin(folder: URL(fileURLWithPath: "/")).check()
        #expect(throws: BridgeError.self) { try AppOrigin(folder: URL(fileURLWithPath: "/"), host: "Local Host").check() }
    }
}
