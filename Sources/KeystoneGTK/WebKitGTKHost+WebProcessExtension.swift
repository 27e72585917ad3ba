// WebKitGTKHost+WebProcessExtension.swift — Keystone's extension of WebKitGTK's web process: offered
// to the web context, and heard from per web process.
#if canImport(CWebKitGTK)
import CWebKitGTK
import Foundation
import Keystone
import KeystoneHost

extension WebKitGTKHost {
    /// The extension's file, a resource of this module (built from `WebProcessExtension/` by the
    /// package's KeystoneWebProcessExtensionBuilder plugin), in a private folder of its own: made
    /// once per process, on first use.
    private static let extensionFolder = Result { () throws(BridgeError) -> URL in
        guard let file = Bundle.module.url(forResource: "keystone-web-process-extension", withExtension: "so") else {
            throw BridgeError(code: .notFound, message: "the web-process extension is missing from the KeystoneGTK bundle")
        }
        return try WebProcessExtensionFolder.make(holding: file)
    }
    /// The web contexts told where the extension is. Main loop's thread only.
    nonisolated(unsafe) private static var offeredContexts: Set<OpaquePointer> = []
    /// What the extension says when it runs in a page's web process, and the version it speaks.
    static let extensionAnnouncement = "keystone.extension"
    static let extensionVersion: UInt32 = 1

    /// Offers the extension to the web view's context, whose web processes started from now on
    /// load it, and listens for it. Where it cannot be offered the hub's logging hears why, once,
    /// and the host works as without it.
    func offerWebProcessExtension() {
        _ = ks_on_user_message(
            webView,
            { _, message, data in
                guard let message, let data else { return 0 }
                return Unmanaged<WebKitGTKHost>.fromOpaque(data).takeUnretainedValue().receive(message) ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
        guard options.loadsWebProcessExtension, let context = webkit_web_view_get_context(webView) else { return }
        switch Self.extensionFolder {
        case .success(let folder):
            if Self.offeredContexts.insert(context).inserted { webkit_web_context_set_web_extensions_directory(context, folder.path) }
        case .failure(let error):
            guard Self.offeredContexts.insert(context).inserted else { return }
            (hub as? Keystone)?.components.logging.log(.warning, "the web process runs without Keystone's extension: \(error.message)")
        }
    }

    /// A message of the page's web process: the extension's announcement, of the version this host
    /// speaks, is taken; any other is left to the app's own handlers.
    private func receive(_ message: OpaquePointer) -> Bool {
        guard String(cString: webkit_user_message_get_name(message)) == Self.extensionAnnouncement else { return false }
        let parameters = webkit_user_message_get_parameters(message)
        runsWebProcessExtension =
            parameters.map { String(cString: g_variant_get_type_string($0)) == "u" && g_variant_get_uint32($0) == Self.extensionVersion } ?? false
        return true
    }
}
#endif
