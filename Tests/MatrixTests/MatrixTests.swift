// MatrixTests.swift — the feature matrix (Tests/E2E/pages/matrix.js) in memory: the shipped runtime
// in JavaScriptCore against the demo's interfaces, each pair's outcome the one the matrix states,
// as the real hosts' run of the same script must give (Tests/E2E/pages/matrix.html).
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("The feature matrix, in memory", .timeLimit(.minutes(1)))
struct MatrixTests {
    static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("E2E/pages")

    @Test func everyPairHasTheOutcomeTheMatrixStates() async throws {
        let keystone = Keystone()
        try keystone.registerDemoInterfaces(counter: MainActorInterface.Counter())
        let script = try String(contentsOf: Self.pages.appendingPathComponent("matrix.js"), encoding: .utf8)
        let page = InMemoryPage(hub: keystone, runtime: .keystone, frame: CallerFrame(isMainFrame: true, origin: "https://app.example"), scripts: [script])
        page.initialize()
        let outcomes = try await page.page.awaited("runMatrix()")
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_FIXTURES"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(outcomes).write(to: Self.pages.appendingPathComponent("matrix-expected.json"))
        }
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: Self.pages.appendingPathComponent("matrix-expected.json")))
        guard case .object(let wanted) = expected, case .object(let got) = outcomes else {
            Issue.record("the matrix gave no outcomes: \(outcomes)")
            return
        }
        for (name, outcome) in wanted { #expect(got[name] == outcome, "\(name)") }
        #expect(Set(got.map(\.key)) == Set(wanted.map(\.key)))
    }
}
