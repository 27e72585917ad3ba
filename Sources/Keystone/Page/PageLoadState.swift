// PageLoadState.swift — the page load as a pure value: which one it is, whether its page has
// initialized and with which runtime, what its main frame established, and who waits for it.

/// The current page load, without locks or side effects. `Pending` is a waiter's way to be told.
///
/// - A page load ends when the page goes (``unload(next:)``): the next one begins, not initialized, its
///   runtime DSBridge's until the page announces Keystone's, with nothing established.
/// - What the main frame establishes (its authorisation, the methods it declared) belongs to it and
///   to frames of the origin it was granted to (``access(for:)``), for this page load only.
/// - Who waits for the page to be ready is told when it initializes; an unload keeps them waiting
///   for the next page.
struct PageLoadState<Pending: Sendable>: Sendable {
    /// The most methods a page load may declare.
    let declarationLimit: Int
    private(set) var pageLoad = PageLoad.first
    private(set) var isPageReady = false
    private(set) var runtime = PageRuntime.dsbridge
    /// The origin of the main frame's document, as it reported it when it initialized.
    private(set) var origin: String?
    /// What the current page load's main frame has established: its authorisation and declared
    /// methods.
    private var access = PageAccess()
    /// The origin of the main frame that established ``access``: the principal the grant belongs to.
    private var principal: String?
    private var lastWaiter = 0
    private var waiters: [Int: Pending] = [:]
    /// The origins of the app's own pages its hosts serve, when they are the only origins the hub
    /// admits (the app's policy lists none of its own); `nil` otherwise. No page load ends it.
    private(set) var appOrigins: Set<String>?

    /// A page whose first page load is `first`: page loads are numbered across every page of a
    /// Keystone, so no two pages' are the same.
    init(declarationLimit: Int, first: PageLoad = .first) {
        self.declarationLimit = declarationLimit
        pageLoad = first
    }

    /// A host serves the app's own pages at `origin`: from now on only the app's origins are admitted.
    mutating func admitOnly(appOrigin origin: String) {
        appOrigins = (appOrigins ?? []).union([origin])
    }

    /// Whether `frame`'s origin is admitted: any, until a host serves the app's pages; then only
    /// theirs.
    func admitsOrigin(of frame: CallerFrame) -> Bool {
        guard let appOrigins else { return true }
        return frame.origin.map(appOrigins.contains) ?? false
    }

    /// What `frame` may rely on of what the page load established: all of it for the main frame and
    /// for a frame of the origin the grant was made to (which the same-origin policy lets act as the
    /// main frame anyway); nothing for any other frame.
    func access(for frame: CallerFrame) -> PageAccess {
        if frame.isAttestedMainFrame { return access }
        guard frame.isAttested, let origin = frame.origin, origin == principal else { return PageAccess() }
        return access
    }

    /// The app's policy accepted the credentials the main frame of `origin` presented during the
    /// page load `pageLoad`; `false` when that page load has gone, and the grant with it.
    mutating func authorize(_ pageLoad: PageLoad, origin: String?) -> Bool {
        guard pageLoad == self.pageLoad else { return false }
        access.isAuthorized = true
        principal = origin
        return true
    }

    /// The current page load's main frame, of `origin`, declared the methods it will use; a later
    /// declaration adds to it. Refused whole when the page load would declare more than the limit.
    mutating func declare(_ methods: Set<String>, origin: String?) -> Result<Void, BridgeError> {
        let declared = (access.declaredMethods ?? []).union(methods)
        guard declared.count <= declarationLimit else {
            return .failure(BridgeError(code: .limitExceeded, message: "a page may declare at most BridgeLimits.declaredMethods (\(declarationLimit)) methods"))
        }
        access.declaredMethods = declared
        principal = origin
        return .success(())
    }

    /// The page, a document of `origin`, has registered its handlers, announcing `runtime`: who
    /// waited for it, in order.
    mutating func initialize(runtime announced: PageRuntime, origin: String? = nil) -> [Pending] {
        isPageReady = true
        self.origin = origin
        // A page with two bridge scripts initializes twice; once Keystone's has spoken, it stays.
        if announced == .keystone { runtime = .keystone }
        defer { waiters.removeAll() }
        return waiters.keys.sorted().compactMap { waiters[$0] }
    }

    /// A call of the main frame's spoke as only Keystone's runtime does: results go to that runtime
    /// from now on, before the page announces itself too.
    mutating func heardKeystone() {
        runtime = .keystone
    }

    /// `waiter` waits for the page to be ready: `nil` when it is (tell the waiter now), otherwise
    /// the id that ``stopWaiting(_:)`` takes.
    mutating func wait(_ waiter: Pending) -> Int? {
        guard !isPageReady else { return nil }
        lastWaiter += 1
        waiters[lastWaiter] = waiter
        return lastWaiter
    }

    /// The waiter `id` stopped waiting (its task was cancelled): it, unless it was already told.
    mutating func stopWaiting(_ id: Int) -> Pending? {
        waiters.removeValue(forKey: id)
    }

    /// The page has gone: the next page load begins, `next` (`nil`: the one numbered after it).
    mutating func unload(next: PageLoad? = nil) {
        pageLoad = next ?? pageLoad.next
        isPageReady = false
        runtime = .dsbridge
        origin = nil
        access = PageAccess()
        principal = nil
    }
}

extension BridgeError {
    /// The refusal of a page of another origin than the app's own, once a host serves those.
    static let notTheAppsOrigin = BridgeError(code: .notAllowed, message: "the page's origin is not one of the app's own, and the app lists no other")
}
