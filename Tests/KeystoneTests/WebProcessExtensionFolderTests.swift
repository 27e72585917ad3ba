// WebProcessExtensionFolderTests.swift — the folder a host shows its engine: private, holding only
// the extension, and nothing left behind where it cannot be made.
import Foundation
import Keystone
import KeystoneHost
import Testing

@Suite("The web-process extension's folder")
struct WebProcessExtensionFolderTests {
    /// A scratch folder of the test's own, removed afterwards.
    private func withScratch(_ body: (URL) throws -> Void) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("keystone-folder-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try body(scratch)
    }

    /// The code `body` is refused with; `nil` when it is not.
    private static func refusal(_ body: () throws(BridgeError) -> Void) -> BridgeError.Code? {
        do {
            try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func theFolderIsTheUsersAloneAndHoldsOnlyACopyOfTheExtension() throws {
        try withScratch { scratch in
            let file = scratch.appendingPathComponent("extension.so")
            try Data([0x7F, 0x45, 0x4C, 0x46, 1, 2, 3]).write(to: file)
            let folder = try WebProcessExtensionFolder.make(holding: file, base: scratch.path)
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["extension.so"])
            #expect(try Data(contentsOf: folder.appendingPathComponent("extension.so")) == Data([0x7F, 0x45, 0x4C, 0x46, 1, 2, 3]))
            let copy = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("extension.so").path)
            #expect((copy[.posixPermissions] as? Int) == 0o500)
        }
    }

    @Test func eachFolderIsNewSoNoneMadeBeforeCanBeTakenForIt() throws {
        try withScratch { scratch in
            let file = scratch.appendingPathComponent("extension.so")
            try Data([1]).write(to: file)
            let first = try WebProcessExtensionFolder.make(holding: file, base: scratch.path)
            let second = try WebProcessExtensionFolder.make(holding: file, base: scratch.path)
            #expect(first != second)
        }
    }

    @Test func aMissingExtensionIsACodedErrorAndLeavesNothingBehind() throws {
        try withScratch { scratch in
            #expect(Self.refusal { () throws(BridgeError) in _ = try WebProcessExtensionFolder.make(holding: scratch.appendingPathComponent("missing.so"), base: scratch.path) } == .notFound)
            let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
            #expect(left == [])
        }
    }

    @Test func aBaseNobodyCanWriteInIsACodedError() throws {
        try withScratch { scratch in
            let file = scratch.appendingPathComponent("extension.so")
            try Data([1]).write(to: file)
            #expect(Self.refusal { () throws(BridgeError) in _ = try WebProcessExtensionFolder.make(holding: file, base: scratch.appendingPathComponent("no-such-folder").path) } == .failed)
        }
    }
}
