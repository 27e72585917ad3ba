// PageLoadNumbers.swift — the numbers of the page loads of every page of a Keystone, so that no two
// pages' page loads are the same.
@_spi(KeystoneInternal) import KeystoneInterfaces

/// Numbers page loads across every page of a Keystone: each page's first, and each next one when a
/// page goes, gets a number no page load of any of its pages has had. What outlives a page load
/// (a durable call's outcome, handed to one page load) then names a page load alone.
final class PageLoadNumbers: Sendable {
    private let last = Locked(PageLoad.first.rawValue - 1)

    /// A page load no page of the Keystone has had: the first is ``PageLoad/first``.
    func next() -> PageLoad {
        let number = last.withLock { last in
            last += 1
            return last
        }
        return PageLoad(rawValue: number)
    }
}
