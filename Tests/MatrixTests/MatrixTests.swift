// MatrixTests.swift — the feature matrix (Tests/E2E/pages/matrix.js) in memory: the shipped runtime
// in JavaScriptCore against the demo's interfaces, each pair's outcome the one the matrix states,
// as the real hosts' run of the same script must give (Tests/E2E/pages/matrix.html).
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("The feature matrix, in memory", .timeLimit(.minutes(1)))
struct MatrixTests {
    static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("E2E/pages")
    static let origin = "https://app.example"

    /// The main frame's three documents (across a reload and the end of its web process, which
    /// `host.terminate` ends as the demo's hosts do), then a subframe document of its origin.
    @Test func everyPairHasTheOutcomeTheMatrixStates() async throws {
        // As the demo runs matrix.html: subframes of the page's origin allowed.
        let keystone = Keystone(components: KeystoneComponents(policy: DefaultCallPolicy(allowsSubframes: true, allowedOrigins: [Self.origin])))
        try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())
        let current = Locked<InMemoryPage?>(nil)
        let terminations = Locked(0)
        let host = HostInterface(
            evaluate: { _, _ in .null },
            terminate: { _ in
                // After the answer has reached the page, as the demo's hosts end it.
                Task {
                    let count = terminations.withLock { count in
                        count += 1
                        return count
                    }
                    guard let page = current.withLock({ $0 }) else { return }
                    // The host loads the page again, as the demo's hosts do after one end.
                    page.terminateWebProcess(at: .seconds(count * 60))
                    page.initialize()
                }
            },
            terminations: { terminations.withLock { $0 } })
        try keystone.register(host, namespace: "host")
        let script = try String(contentsOf: Self.pages.appendingPathComponent("matrix.js"), encoding: .utf8)
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: Self.origin), scripts: [script])
        current.withLock { $0 = page }
        page.initialize()
        await page.page.until("window.matrixPhase === 'terminated'")
        let main = try await page.page.awaited("matrix")
        let frame = page.addSubframe(origin: Self.origin, scripts: ["window.matrixFrame = true;", script])
        frame.initialize()
        let subframe = try await frame.page.awaited("matrix")
        let outcomes = ["main": main, "subframe": subframe]

        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(outcomes).write(to: Self.pages.appendingPathComponent("matrix-expected.json"))
        }
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.pages.appendingPathComponent("matrix-expected.json")))
        for section in ["main", "subframe"] {
            guard case .object(let all) = expected, case .object(let wanted)? = all[section], case .object(let got)? = outcomes[section] else {
                Issue.record("the matrix gave no outcomes for \(section): \(outcomes)")
                continue
            }
            for (name, outcome) in wanted { #expect(got[name] == outcome, "\(section): \(name)") }
            #expect(Set(got.map(\.key)) == Set(wanted.map(\.key)), "\(section)")
        }
    }
}
