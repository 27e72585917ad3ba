// NoOpenPanelOnIOS.swift — expects: iOS passes, macOS fails.
// On iOS the host must not answer the open panel (a delegate that has the method replaces WebKit's
// own file picker): this declares it again, which compiles only where the host has none.
import Foundation

extension HostDelegates {
    @available(iOS 18.4, macOS 10.12, *)
    func webView(
        _ webView: WKWebView,
        runOpenPanelWith parameters: WKOpenPanelParameters,
        initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable ([URL]?) -> Void
    ) {}
}
