// Dispatch.swift — the Dispatch that Apple's SDK gives the Apple host, as far as the host names it:
// declarations for scripts/apple-sdk-check.sh to type-check against, never run.
public struct DispatchTime: Sendable {
    public static func now() -> DispatchTime { DispatchTime() }
    public static func + (time: DispatchTime, seconds: Double) -> DispatchTime { time }
}

public struct DispatchQoS: Sendable {
    public enum QoSClass: Sendable {
        case `default`, userInitiated, utility, background
    }
}

public final class DispatchQueue: @unchecked Sendable {
    public static let main = DispatchQueue()
    public static func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue { main }
    public func async(execute work: @escaping @Sendable () -> Void) {}
    public func asyncAfter(deadline: DispatchTime, execute work: @escaping @Sendable () -> Void) {}
}

public final class DispatchSemaphore: @unchecked Sendable {
    public init(value: Int) {}
    @discardableResult public func signal() -> Int { 0 }
    public func wait() {}
}
