// WebProcessExtensionFolder.swift — the private folder a host shows its engine, holding only the
// web-process extension it offers.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces

/// A folder of this process's own, holding one file: the web-process extension a host offers its
/// engine (WebKitGTK's `webkit_web_context_set_web_extensions_directory`; WPE's engines take one the
/// same way). The engine loads every shared object in the folder it is given into every web
/// process, so the folder holds nothing else, and nobody but this process's user can write to it:
/// it is made afresh by `mkdtemp` (mode 0700, a name nobody could have made first) under the
/// user's runtime folder (`XDG_RUNTIME_DIR`) or the temporary folder, and removed with the file
/// when the process exits normally.
package enum WebProcessExtensionFolder {
    /// A new folder under `base` (the user's runtime folder, else the temporary one) holding a copy
    /// of `file` under its own name, readable and loadable by this user only; the folder's URL.
    /// - Throws: `BridgeError` (`notFound`) when `file` is missing; (`failed`) when the folder or
    ///   the copy cannot be made. Nothing is left behind either way.
    package static func make(holding file: URL, base: String? = nil) throws(BridgeError) -> URL {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw BridgeError(code: .notFound, message: "the web-process extension \(file.lastPathComponent) is missing")
        }
        let parent = base ?? ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
        var template = Array((URL(fileURLWithPath: parent).appendingPathComponent("keystone-web-process-XXXXXX").path).utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BridgeError(code: .failed, message: "no private folder could be made for the web-process extension under \(parent)")
        }
        let folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        let copy = folder.appendingPathComponent(file.lastPathComponent)
        do {
            try FileManager.default.copyItem(at: file, to: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: copy.path)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw BridgeError(code: .failed, message: "the web-process extension could not be put in its folder: \(error.localizedDescription)")
        }
        removeAtExit(folder)
        return folder
    }

    /// The folders this process made, removed when it exits.
    private static let made = Locked<[URL]>([])

    private static func removeAtExit(_ folder: URL) {
        let first = made.withLock { folders in
            folders.append(folder)
            return folders.count == 1
        }
        guard first else { return }
        atexit {
            for folder in WebProcessExtensionFolder.made.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
        }
    }
}
