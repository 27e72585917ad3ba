// MethodKindFilter.swift — the kinds `hasNativeMethod` asks about, by their wire names.
/// Which kinds of method `dsBridge.hasNativeMethod(name, type)` asks about.
public enum MethodKindFilter: String, Sendable, Hashable, CaseIterable {
    /// Any method (`"all"`, the default).
    case all
    /// Synchronous methods (`"syn"`).
    case sync = "syn"
    /// Asynchronous and multi-response methods (`"asyn"`).
    case async = "asyn"

    /// Whether a method of `kind` is one this filter asks about.
    public func matches(_ kind: MethodKind) -> Bool {
        switch self {
        case .all: true
        case .sync: kind == .sync
        case .async: kind.isAsynchronous
        }
    }
}
