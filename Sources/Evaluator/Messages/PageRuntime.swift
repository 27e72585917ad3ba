// PageRuntime.swift — which page-side script the page runs, which decides how scripts are written.
/// The page-side bridge script a page runs, as it announced itself in `_dsb.dsinit`.
public enum PageRuntime: String, Sendable, Hashable, Codable {
    /// dsbridge.js 3.1.4, or any page that does not announce itself: plain protocol scripts.
    case dsbridge
    /// Keystone's page runtime: batches are delivered to `window._keystone.deliver`, which knows
    /// completion, errors and events.
    case keystone
}
