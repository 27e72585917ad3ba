// DurableCallsTests.swift — the page's durable calls as a value: exactly once under a key, kept
// for their origin past their page load, handed to one document until acknowledged, bounded.
import Foundation
import Testing

@testable import Keystone

@Suite("Durable calls")
struct DurableCallsTests {
    typealias Calls = DurableCalls<String>
    let shop = "https://shop.example"
    let first = PageLoad.first
    let second = PageLoad.first.next

    func listener(_ pageLoad: PageLoad, _ callback: String) -> Calls.Listener {
        Calls.Listener(pageLoad: pageLoad, callback: PageCallback(callback))
    }

    func key(_ key: String, _ origin: String? = nil) -> Calls.Key {
        Calls.Key(origin: origin ?? shop, key: key)
    }

    func value(_ json: String) -> DurableOutcome {
        .value(try? JSONText(validating: Data(json.utf8)))
    }

    @Test func aKeyRunsOnceWhateverSendsItAgain() {
        var calls = Calls(limit: 8, byteLimit: 1 << 20, lifetime: .seconds(60))
        #expect(calls.begin(key("pay-1"), method: "shop.pay", listener: listener(first, "dscb0"), now: .zero) == .run)
        // Sent again while it runs, from the same document or the next: it joins.
        #expect(calls.begin(key("pay-1"), method: "shop.pay", listener: listener(first, "dscb1"), now: .zero) == .joined)
        #expect(calls.begin(key("pay-1"), method: "shop.pay", listener: listener(second, "dscb0"), now: .zero) == .joined)
        let (listeners, recovered) = calls.finish(key("pay-1"), outcome: value("42"), now: .seconds(1))
        #expect(listeners == [listener(first, "dscb0"), listener(first, "dscb1"), listener(second, "dscb0")])
        #expect(recovered.isEmpty)
        // Once it has ended, the same key gets its outcome and does not run.
        #expect(calls.begin(key("pay-1"), method: "shop.pay", listener: listener(second, "dscb3"), now: .seconds(2)) == .finished(value("42")))
        // Another origin's key of the same name is another call.
        #expect(calls.begin(key("pay-1", "https://other.example"), method: "shop.pay", listener: listener(second, "dscb4"), now: .seconds(2)) == .run)
    }

    @Test func theNextDocumentOfTheOriginRecoversEarlierOutcomesUntilItAcknowledgesThem() {
        var calls = Calls(limit: 8, byteLimit: 1 << 20, lifetime: .seconds(60))
        _ = calls.begin(key("a"), method: "shop.pay", listener: listener(first, "dscb0"), now: .zero)
        _ = calls.begin(key("b"), method: "shop.save", listener: listener(first, "dscb1"), now: .zero)
        _ = calls.finish(key("a"), outcome: value(#""paid""#), now: .zero)
        _ = calls.finish(key("b"), outcome: .failure(BridgeError(code: .failed, message: "disk full")), now: .zero)
        // The page load that started them hears them through their callbacks, not `recovered()`.
        #expect(calls.recover(origin: shop, in: first, waiter: "w", now: .zero) == [])
        #expect(calls.pageLoadChanged(from: first, to: second).isEmpty)
        let handed = calls.recover(origin: shop, in: second, waiter: "w", now: .zero)
        #expect(
            handed == [
                .init(key: "a", method: "shop.pay", outcome: value(#""paid""#)),
                .init(key: "b", method: "shop.save", outcome: .failure(BridgeError(code: .failed, message: "disk full"))),
            ])
        // Another origin never sees them.
        #expect(calls.recover(origin: "https://other.example", in: second, waiter: "w", now: .zero) == [])
        // The document went before acknowledging: the next one gets them again.
        let third = second.next
        _ = calls.pageLoadChanged(from: second, to: third)
        #expect(calls.recover(origin: shop, in: third, waiter: "w", now: .zero)?.count == 2)
        calls.acknowledge(["a"], origin: shop)
        #expect(calls.recover(origin: shop, in: third, waiter: "w", now: .zero)?.map(\.key) == ["b"])
        calls.acknowledge(["b"], origin: "https://other.example")  // not that origin's to acknowledge
        #expect(calls.recover(origin: shop, in: third, waiter: "w", now: .zero)?.map(\.key) == ["b"])
        calls.acknowledge(["b"], origin: shop)
        #expect(calls.recover(origin: shop, in: third, waiter: "w", now: .zero) == [])
        // An acknowledged outcome still answers its key: the call does not run again.
        #expect(calls.begin(key("a"), method: "shop.pay", listener: listener(third, "dscb0"), now: .zero) == .finished(value(#""paid""#)))
    }

    @Test func acknowledgedOutcomesMakeRoomForNewCallsTheOldestFirst() {
        var calls = Calls(limit: 2, byteLimit: 1 << 20, lifetime: .seconds(60))
        for (index, name) in ["a", "b"].enumerated() {
            _ = calls.begin(key(name), method: "m", listener: listener(first, "dscb\(index)"), now: .zero)
            _ = calls.finish(key(name), outcome: value("\(index)"), now: .seconds(index))
        }
        // Unacknowledged outcomes are kept: a third call finds no room.
        guard case .refused = calls.begin(key("c"), method: "m", listener: listener(first, "dscb2"), now: .seconds(2)) else {
            Issue.record("an unacknowledged outcome was let go")
            return
        }
        calls.acknowledge(["b", "a"], origin: shop)
        #expect(calls.begin(key("c"), method: "m", listener: listener(first, "dscb2"), now: .seconds(2)) == .run)
        #expect(calls.begin(key("a"), method: "m", listener: listener(first, "dscb3"), now: .seconds(2)) != .finished(value("0")))  // a went first
        #expect(calls.count == 2)
    }

    @Test func anOriginAloneMayFillTheStoreButNotKeepAnotherFromItsShare() {
        let ad = "https://ad.example"
        var calls = Calls(limit: 4, byteLimit: 1 << 20, lifetime: .seconds(60))
        for index in 0..<4 {
            #expect(calls.begin(key("ad\(index)", ad), method: "m", listener: listener(first, "dscb\(index)"), now: .zero) == .run)
            _ = calls.finish(key("ad\(index)", ad), outcome: value("\(index)"), now: .seconds(index))
        }
        // The shop holds nothing: each of its calls lets go of the ad's oldest outcome, up to an
        // equal share (2 of 4), and no further.
        #expect(calls.begin(key("a"), method: "m", listener: listener(first, "dscb4"), now: .seconds(5)) == .run)
        #expect(calls.begin(key("b"), method: "m", listener: listener(first, "dscb5"), now: .seconds(5)) == .run)
        guard case .refused(let error) = calls.begin(key("c"), method: "m", listener: listener(first, "dscb6"), now: .seconds(5)) else {
            Issue.record("an origin took more than its share")
            return
        }
        #expect(error.code == .limitExceeded)
        // The ad's two oldest went; its newest two are kept.
        #expect(calls.begin(key("ad2", ad), method: "m", listener: listener(first, "dscb7"), now: .seconds(5)) == .finished(value("2")))
        #expect(calls.begin(key("ad3", ad), method: "m", listener: listener(first, "dscb8"), now: .seconds(5)) == .finished(value("3")))
        #expect(calls.count == 4)
    }

    @Test func aRunningCallIsNeverLetGoForAnotherOriginsShare() {
        let ad = "https://ad.example"
        var calls = Calls(limit: 2, byteLimit: 1 << 20, lifetime: .seconds(60))
        for index in 0..<2 { _ = calls.begin(key("ad\(index)", ad), method: "m", listener: listener(first, "dscb\(index)"), now: .zero) }
        guard case .refused = calls.begin(key("a"), method: "m", listener: listener(first, "dscb2"), now: .zero) else {
            Issue.record("a running call was let go")
            return
        }
    }

    @Test func anOutcomeWithinItsOriginsShareOfTheBytesIsKeptAsItself() {
        // The ad's outcomes fill the bytes; the shop's outcome, within its share, is kept as it
        // is, and the ad's oldest outcome goes to make room.
        let ad = "https://ad.example"
        var calls = Calls(limit: 16, byteLimit: 40, lifetime: .seconds(60))
        for index in 0..<4 {
            _ = calls.begin(key("ad\(index)", ad), method: "m", listener: listener(first, "dscb\(index)"), now: .zero)
            _ = calls.finish(key("ad\(index)", ad), outcome: value("\"12345678\""), now: .seconds(index))
        }
        #expect(calls.heldBytes == 40)
        _ = calls.begin(key("a"), method: "m", listener: listener(first, "dscb4"), now: .seconds(5))
        _ = calls.finish(key("a"), outcome: value("\"abcdefgh\""), now: .seconds(5))
        #expect(calls.begin(key("a"), method: "m", listener: listener(first, "dscb5"), now: .seconds(5)) == .finished(value("\"abcdefgh\"")))
        #expect(calls.heldBytes == 40)
        // Past its share (20 of 40 bytes), the shop's outcome is an error: its own share is spent.
        _ = calls.begin(key("b"), method: "m", listener: listener(first, "dscb6"), now: .seconds(6))
        _ = calls.finish(key("b"), outcome: value("\"" + String(repeating: "x", count: 18) + "\""), now: .seconds(6))
        guard case .finished(.failure(let error)) = calls.begin(key("b"), method: "m", listener: listener(first, "dscb7"), now: .seconds(6)) else {
            Issue.record("an outcome past its origin's share was kept")
            return
        }
        #expect(error.code == .limitExceeded)
    }

    @Test func recoveringWaitsForTheCallsOfEarlierDocumentsStillRunning() {
        var calls = Calls(limit: 8, byteLimit: 1 << 20, lifetime: .seconds(60))
        _ = calls.begin(key("slow"), method: "shop.pay", listener: listener(first, "dscb0"), now: .zero)
        _ = calls.pageLoadChanged(from: first, to: second)
        #expect(calls.recover(origin: shop, in: second, waiter: "second's", now: .zero) == nil)
        // A call the waiting document starts itself does not hold it back.
        _ = calls.begin(key("own"), method: "shop.pay", listener: listener(second, "dscb0"), now: .zero)
        let (listeners, recovered) = calls.finish(key("slow"), outcome: value("1"), now: .seconds(1))
        #expect(listeners == [listener(first, "dscb0")])  // the page load that has gone: the hub drops it
        #expect(recovered.map(\.0) == ["second's"])
        #expect(recovered.first?.1 == [.init(key: "slow", method: "shop.pay", outcome: value("1"))])
    }

    @Test func aWaitingRecoveryOfAPageLoadThatWentIsLetGo() {
        var calls = Calls(limit: 8, byteLimit: 1 << 20, lifetime: .seconds(60))
        _ = calls.begin(key("slow"), method: "shop.pay", listener: listener(first, "dscb0"), now: .zero)
        _ = calls.pageLoadChanged(from: first, to: second)
        #expect(calls.recover(origin: shop, in: second, waiter: "second's", now: .zero) == nil)
        #expect(calls.pageLoadChanged(from: second, to: second.next) == ["second's"])
        #expect(calls.finish(key("slow"), outcome: value("1"), now: .zero).recovered.isEmpty)
    }

    @Test func anotherPagesLiveCallsAreItsOwnUntilItsPageLoadGoes() {
        // Two web views of one origin at once: page loads `first` and `other` are both current.
        var calls = Calls(limit: 8, byteLimit: 1 << 20, lifetime: .seconds(60))
        let other = PageLoad.first.next.next
        calls.pageLoadBegan(first)
        calls.pageLoadBegan(other)
        _ = calls.begin(key("running"), method: "shop.pay", listener: listener(first, "dscb0"), now: .zero)
        _ = calls.begin(key("done"), method: "shop.pay", listener: listener(first, "dscb1"), now: .zero)
        _ = calls.finish(key("done"), outcome: value("1"), now: .zero)
        // The other page neither waits for the first's running call nor takes its outcome.
        #expect(calls.recover(origin: shop, in: other, waiter: "other's", now: .zero) == [])
        // The first page's document goes: its calls are the origin's to recover now.
        #expect(calls.pageLoadChanged(from: first, to: second).isEmpty)
        #expect(calls.recover(origin: shop, in: other, waiter: "other's", now: .zero) == nil)
        let (_, recovered) = calls.finish(key("running"), outcome: value("2"), now: .zero)
        #expect(recovered.map(\.0) == ["other's"])
        #expect(recovered.first?.1.map(\.key) == ["done", "running"])
        // Handed to the other page's document, not to the first page's next one until that goes.
        #expect(calls.recover(origin: shop, in: second, waiter: "second's", now: .zero) == [])
        #expect(calls.pageLoadEnded(other).isEmpty)
        #expect(calls.recover(origin: shop, in: second, waiter: "second's", now: .zero)?.count == 2)
    }

    @Test func callsOutcomeBytesAndTimeAreBounded() {
        var calls = Calls(limit: 2, byteLimit: 200, lifetime: .seconds(60))
        #expect(calls.begin(key("a"), method: "m", listener: listener(first, "dscb0"), now: .zero) == .run)
        #expect(calls.begin(key("b"), method: "m", listener: listener(first, "dscb1"), now: .zero) == .run)
        guard case .refused(let error) = calls.begin(key("c"), method: "m", listener: listener(first, "dscb2"), now: .zero) else {
            Issue.record("a third call was kept")
            return
        }
        #expect(error.code == .limitExceeded)
        // An outcome past the bytes is kept as an error that says so, not as itself.
        _ = calls.finish(key("a"), outcome: value("\"" + String(repeating: "x", count: 300) + "\""), now: .zero)
        guard case .finished(.failure(let tooLarge)) = calls.begin(key("a"), method: "m", listener: listener(first, "dscb3"), now: .zero) else {
            Issue.record("the large outcome was kept")
            return
        }
        #expect(tooLarge.code == .limitExceeded)
        _ = calls.finish(key("b"), outcome: value("7"), now: .seconds(10))
        // Past its lifetime after it ended, an outcome goes, and its key runs again.
        #expect(calls.begin(key("b"), method: "m", listener: listener(first, "dscb4"), now: .seconds(70)) == .finished(value("7")))
        #expect(calls.begin(key("b"), method: "m", listener: listener(first, "dscb4"), now: .seconds(71)) == .run)
        #expect(calls.count == 1 && calls.heldBytes == 0)
    }

    @Test func aStoreHearsEveryOutcomeKeptAcknowledgedAndLetGoInOrder() {
        var calls = Calls(limit: 8, byteLimit: 1 << 20, lifetime: .seconds(60))
        _ = calls.begin(key("a"), method: "shop.pay", listener: listener(first, "dscb0"), now: .zero)
        #expect(calls.takeChanges().isEmpty)  // a running call is not kept in a store
        _ = calls.finish(key("a"), outcome: value("1"), now: .zero)
        calls.acknowledge(["a"], origin: shop)
        calls.acknowledge(["a"], origin: shop)  // once is enough
        calls.expire(now: .seconds(61))
        let record = DurableCallRecord(origin: shop, key: "a", method: "shop.pay", value: "1", error: nil, isAcknowledged: false)
        var acknowledged = record
        acknowledged.isAcknowledged = true
        #expect(calls.takeChanges() == [.save(record), .save(acknowledged), .remove(key("a"))])
        // Read back by the next Keystone: outcomes of calls no page load of its own started.
        var next = Calls(limit: 8, byteLimit: 1 << 20, lifetime: .seconds(60))
        next.restore([record, DurableCallRecord(origin: shop, key: "b", method: "m", value: nil, error: BridgeError(code: .failed, message: "no"), isAcknowledged: true)], now: .zero)
        #expect(next.recover(origin: shop, in: first, waiter: "w", now: .zero) == [.init(key: "a", method: "shop.pay", outcome: value("1"))])
        #expect(next.begin(key("b"), method: "m", listener: listener(first, "dscb0"), now: .zero) == .finished(.failure(BridgeError(code: .failed, message: "no"))))
        #expect(next.takeChanges().isEmpty)
    }
}
