// AccessFileCheck.swift — an app that commits what each origin may call (Examples/AppAccess.txt)
// and whose check fails when a change widens it.
import Foundation
import Keystone

extension ExamplesCheck {
    /// The app's Keystone: its own pages at `app://localhost` and a partner's site may call, the
    /// partner only its namespace; the admin namespace answers the app's pages once authorised.
    static func appKeystone(widened: Bool = false) throws -> Keystone {
        var policy = DefaultCallPolicy(allowedOrigins: ["app://localhost", "https://partner.example"])
        policy.namespaceRules["profile"] = NamespaceRule(origins: ["app://localhost", "https://partner.example"], isPublic: true)
        policy.namespaceRules["admin"] = NamespaceRule(origins: widened ? ["app://localhost", "https://partner.example"] : ["app://localhost"])
        policy.authorizer = { _, _ in true }
        let keystone = Keystone(components: KeystoneComponents(policy: policy))
        try keystone.register(Profile(), namespace: "profile")
        try keystone.register(Admin(), namespace: "admin")
        return keystone
    }

    /// The committed file matches what the app's Keystone says; a policy that lets the partner reach
    /// the admin namespace no longer does, and the lines it adds say what was widened.
    @MainActor
    static func checkAccessFile(_ check: Report) throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AppAccess.txt")
        // After a change meant to widen it, the app writes the file again and reviews the diff.
        if ProcessInfo.processInfo.environment["KEYSTONE_WRITE_ACCESS"] == "1" { try Data(appKeystone().accessDescription().utf8).write(to: file) }
        let committed = try String(contentsOf: file, encoding: .utf8)
        check(try appKeystone().accessDescription() == committed, "the app's committed access file is what its Keystone allows")
        let widened = try appKeystone(widened: true).accessDescription()
        let added = entries(of: widened).subtracting(entries(of: committed))
        check(widened != committed, "a change that widens what an origin may call no longer matches the committed file")
        check(
            added == ["https://partner.example, main frame: admin.wipe: sync, once authorised"],
            "the widened file adds the partner's new line, and nothing else: \(added.sorted())")
    }

    /// Each method line of an access file, after the origin and frame it is listed under.
    static func entries(of text: String) -> Set<String> {
        var section = ""
        var entries: Set<String> = []
        for line in text.split(separator: "\n") {
            if line.hasSuffix(":") { section = String(line) } else if line.hasPrefix("  ") { entries.insert(section + " " + line.dropFirst(2)) }
        }
        return entries
    }
}
