// InMemoryEngine.swift — the engine under an in-memory page's host session: nothing to evaluate or
// reload, and the web process's end kept for the page to report.
import Keystone
import KeystoneHost
@_spi(KeystoneInternal) import KeystoneInterfaces

/// The engine under an in-memory page's session: it evaluates nothing (the page takes its batches
/// as they are), runs what is for now at once, and reloads nothing (the page has no engine); it
/// keeps the last termination reported.
final class InMemoryEngine: HostEngine, Sendable {
    let lastReport = Locked<WebProcessTermination?>(nil)

    func evaluate(_ script: String, valueLimit: Int?, completion: @escaping @Sendable (Result<String?, BridgeError>) -> Void) {
        completion(.success(nil))
    }

    func runLater(after delay: Duration, _ work: @escaping @Sendable () -> Void, dropped: @escaping @Sendable () -> Void) {
        if delay == .zero { work() } else { dropped() }
    }

    func reload() {}

    func report(_ termination: WebProcessTermination) {
        lastReport.withLock { $0 = termination }
    }
}
