// ArticleExampleTests.swift — the getting-started article's interface and the testing article's
// test, run as the articles show them (the Examples package compiles the articles' snippets; a
// compiled test does not run, so this one does).
import Foundation
import Keystone
import KeystoneTesting
import Testing

struct Account: BridgeInterface {
    struct Credentials: Codable, Sendable { var user: String; var password: String }
    struct Session: Codable, Sendable { var token: String; var expiresIn: Int }

    func signIn(_ credentials: Credentials) async throws -> Session {
        guard credentials.password == "secret" else {
            throw BridgeError(code: 1001, message: "wrong password")
        }
        return Session(token: "t-\(credentials.user)", expiresIn: 3600)
    }

    func userAgent() -> String { "Keystone" }

    func exposeMethods(to methods: inout MethodList) {
        methods.async("signIn", signIn)
        methods.sync("userAgent", userAgent)
    }
}

@Suite("Article example")
struct ArticleExampleTests {
    @Test func signInRejectsAWrongPassword() async throws {
        let keystone = Keystone()
        try keystone.register(Account(), namespace: "account")
        let page = InMemoryPage(hub: keystone)
        page.initialize()

        #expect(try page.call("account.userAgent", as: String.self) == "Keystone")
        let error = await #expect(throws: BridgeError.self) {
            try await page.callAsync("account.signIn", Account.Credentials(user: "ada", password: "nope"), as: Account.Session.self)
        }
        #expect(error?.code.rawValue == 1001)
    }

    @Test func anIsolatedMessageLeavesADefaultKeystoneAtOnce() throws {
        let keystone = Keystone()  // the default evaluator, on the continuous clock, with its 50 ms window
        let page = InMemoryPage(hub: keystone, runtime: .keystone)
        page.initialize()
        try keystone.emit("signedIn", "ada")
        // Delivered inside `emit`, before any time passed: no window was waited for.
        #expect(page.receivedMessages == [.event(name: "signedIn", value: JSONText(quoting: "ada"))])
    }
}

@Suite("The typed pages article")
struct TypedPagesArticleTests {
    @Test func itsGeneratedFileIsWhatTheKeystoneWritesWhole() throws {
        let keystone = Keystone()
        try keystone.register(Account(), namespace: "account")
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Keystone/Keystone.docc/TypedPages.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let start = try #require(text.range(of: "```ts\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        #expect(String(text[start.upperBound..<end.lowerBound]) == keystone.typeScriptDeclarations)
    }
}
