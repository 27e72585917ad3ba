// WebProcessTermination.swift — why a web view's content process ended.
#if canImport(CWebKitGTK)
/// Why the web content process behind a web view ended, as WebKitGTK reports it.
public enum WebProcessTermination: Sendable, Hashable {
    /// The process crashed.
    case crashed
    /// The process went past its memory limit and was killed.
    case exceededMemoryLimit
    /// The app ended it (``WebKitGTKHost/terminateWebProcess()``).
    case terminatedByApp
}
#endif
