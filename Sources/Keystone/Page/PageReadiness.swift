// PageReadiness.swift — waiting for the page's runtime to initialize: `Keystone.pageReady()`.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Someone waiting for the page's runtime to initialize: told once, with `nil` when it has, or the
/// error that ended the wait.
struct PageWaiter: Sendable {
    let resume: @Sendable (BridgeError?) -> Void
}

/// What waiting for the page needs from the hub, which keeps the waiters with the page load
/// (``PageLoadState``).
protocol PageReadinessHub: AnyObject, Sendable {
    /// `waiter` waits for the page to be ready: `nil` when it is (tell the waiter now), otherwise the
    /// id that ``stopWaitingForPage(_:)`` takes.
    func waitForPage(_ waiter: PageWaiter) -> Int?
    /// The waiter `id` stopped waiting (its task was cancelled): it, unless it was already told.
    func stopWaitingForPage(_ id: Int) -> PageWaiter?
}

extension PageReadinessHub {
    /// Returns once the page's runtime has initialized: at once when the current page has,
    /// otherwise when the next one does, whatever loads in between.
    /// - Throws: `BridgeError` (`cancelled`) when the waiting task is cancelled first.
    func pageReady() async throws(BridgeError) {
        let waiter = Locked<Int?>(nil)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BridgeError?, Never>) in
                let waiting = PageWaiter { continuation.resume(returning: $0) }
                guard let id = waitForPage(waiting) else { return waiting.resume(nil) }
                waiter.withLock { $0 = id }
                // Cancelled before the waiter was registered: the handler found no id to stop.
                if Task.isCancelled { stopWaiting(id) }
            }
        } onCancel: {
            if let id = waiter.withLock({ $0 }) { stopWaiting(id) }
        }
        if let outcome { throw outcome }
    }

    private func stopWaiting(_ id: Int) {
        stopWaitingForPage(id)?.resume(BridgeError(code: .cancelled, message: "the wait for the page was cancelled"))
    }
}
