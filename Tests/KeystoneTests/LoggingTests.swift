// LoggingTests.swift — what Keystone logs, and what it never puts in a log line.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("Logging")
struct LoggingTests {
    @Test func isSilentByDefault() throws {
        let (keystone, _) = makeBridge()
        #expect(!keystone.components.logging.isEnabled(.warning))
        #expect(!keystone.components.logging.isEnabled(.debug))
    }

    @Test func warningsReportRefusalsButNotMessages() throws {
        let lines = Locked<[KeystoneLogging.Record]>([])
        let (_, page) = makeBridge(KeystoneComponents(logging: .warnings { record in lines.withLock { $0.append(record) } }))
        _ = page.prompt("missing", argumentText: #"{"data":null}"#)
        let recorded = lines.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.level == .warning)
        #expect(recorded.first?.message.contains("no interface is registered") == true)
    }

    @Test func debugLogsEveryMessageBothWaysWithPayloadsCut() async throws {
        let lines = Locked<[String]>([])
        let (keystone, page) = makeBridge(KeystoneComponents(logging: .debug(payloadLimit: 40) { record in lines.withLock { $0.append(record.message) } }))
        try keystone.register(Calculator(), namespace: "math")
        page.initialize()
        let long = String(repeating: "z", count: 500)
        _ = try page.call("math.raw", JSONValue.string(long), as: JSONValue.self)
        _ = try await page.callAsync("math.later", as: String.self)
        let logged = lines.withLock { $0 }
        #expect(logged.contains { $0.hasPrefix("from page (main frame (origin unknown)): math.raw") })
        #expect(logged.contains { $0.hasPrefix("answer to math.raw") })
        #expect(logged.contains { $0.hasPrefix("to page: ") && $0.contains("later") })
        #expect(logged.allSatisfy { $0.count < 160 })
        #expect(logged.contains { $0.contains("bytes)") })
    }
}
