// Keystone+Tasks.swift — what the page's running calls need of the hub: sending their messages to
// their page load, being cancelled by the page, and starting on the thread that received them.
import Foundation
@_spi(KeystoneInternal) import KeystoneInterfaces

extension Keystone {
    /// Starts `operation` in a new task that runs on this thread until it first suspends, as
    /// DSBridge runs an asynchronous method on the thread that received the call: a method that
    /// answers without waiting has its result queued before the page's call is answered, with no
    /// hop to another thread. The rest runs on the global executor. Where `Task.immediate` is not
    /// available (Apple systems before 26), the task starts on the global executor.
    /// Multi-response methods do not start this way: a producer that writes without waiting would
    /// hold the calling thread, a web view's main thread, for as long as it writes.
    /// `Task.immediate` is in the standard library from Swift 6.2: older compilers (Xcode 16's)
    /// build the fallback alone.
    static func startImmediately(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }

    /// Sends `message` to the page load `epoch`, with the parts of its value, a result of `call`'s;
    /// returns whether the page load was still there.
    @discardableResult
    func send(_ message: PageMessage, parts: ByteParts? = nil, of call: CallParts? = nil, to epoch: PageEpoch?) -> Bool {
        let sent = storage.apply { machine in
            let outputs = machine.send(message, parts: parts, of: call, to: epoch)
            return (outputs != nil, outputs ?? [])
        }
        if !sent { components.logging.log(.debug, "dropped a message for a page load that has gone: \(message)") }
        return sent
    }

    /// Cancels the running call whose callback is `callback`; returns whether there was one.
    func cancelRunningCall(callback: String) -> Bool {
        switch storage.update({ $0.cancelTask(callback: callback) }) {
        case .notFound:
            return false
        case .found(let work):
            work?.cancel()
            return true
        }
    }
}
