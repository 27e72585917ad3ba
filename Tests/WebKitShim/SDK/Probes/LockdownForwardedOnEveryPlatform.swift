// LockdownForwardedOnEveryPlatform.swift — expects: iOS passes, macOS fails.
// The Lockdown Mode forward outside `#if os(iOS)`: macOS's WKUIDelegate has no such method, so the
// check must fail there, as a Mac build of the host once did.
extension HostDelegates {
    func probeLockdown(_ webView: WKWebView, completionHandler: @escaping @MainActor @Sendable (WKDialogResult) -> Void) {
        let forwarded: Void? = appUIDelegate?.webView?(webView, showLockdownModeFirstUseMessage: "", completionHandler: completionHandler)
        if forwarded == nil { completionHandler(.showDefault) }
    }
}
