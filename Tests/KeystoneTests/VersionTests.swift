// VersionTests.swift — the package's version is written once, and the changelog agrees with it.
import Foundation
import Keystone
import Testing

@Suite("Version")
struct VersionTests {
    @Test func theNewestReleaseInTheChangelogIsThePackagesVersion() throws {
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../CHANGELOG.md")
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let releases = text.split(separator: "\n").filter { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let newest = try #require(releases.first)
        #expect(newest.hasPrefix("## [\(Keystone.version)] - "), "CHANGELOG.md's newest release is \(newest), the package's version \(Keystone.version)")
        #expect(text.contains("## [Unreleased]"))
    }

    @Test func theVersionIsSemantic() {
        let parts = Keystone.version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
    }
}
