// WebProcessTermination.swift — the end of a web view's content process, as a host reports it.
import Foundation
import Keystone

/// The end of the web content process behind a page, as a host tells the app.
public struct WebProcessTermination: Sendable, Hashable {
    /// Why the process ended, as far as the engine says.
    public enum Reason: Sendable, Hashable {
        /// The process crashed.
        case crashed
        /// The process went past its memory limit and was killed.
        case exceededMemoryLimit
        /// The app ended it.
        case terminatedByApp
        /// The engine does not say (WKWebView).
        case unknown
    }

    /// Why the process ended.
    public var reason: Reason
    /// Whether the host reloads the page: `false` when the app turned reloading off, or once the
    /// process ended more often than `HostCore/TerminationLimit` allows.
    public var reloads: Bool
    /// How many times the process ended within the limit's window, this time included.
    public var recentCount: Int

    /// Creates a report; each parameter sets the property of the same name.
    public init(reason: Reason, reloads: Bool, recentCount: Int) {
        self.reason = reason
        self.reloads = reloads
        self.recentCount = recentCount
    }
}
