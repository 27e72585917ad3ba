// NewerAPIUnguarded.swift — expects: iOS fails, macOS passes.
// WKOpenPanelParameters is iOS 18.4 API (macOS 10.12): named outside `if #available` on an iOS 16
// build, the check must fail there.
extension HostDelegates {
    func probeOpenPanelParameters() -> WKOpenPanelParameters? { nil }
}
