// WVJBCallbacksTests.swift — the WVJB wire's state on its own: announcement, callback ids, a page change.
import Testing

@testable import Keystone

@Suite("The WVJB wire's state")
struct WVJBCallbacksTests {
    let frame = CallerFrame(isMainFrame: true, origin: "https://app.example")

    @Test func theFirstQueueAnnouncesTheBridgeOnceAndKeystonesScriptIsRemembered() {
        var state = WVJBCallbacks()
        #expect(!state.isReady)
        let arrivals = [false, true, false].map { state.queueArrived(from: frame, speaksKeystone: $0) }
        #expect(arrivals == [true, false, false])
        #expect(state.isReady)
        #expect(state.speaksKeystone)  // once said, kept
        #expect(state.frame == frame)
    }

    @Test func eachCallGetsAHubNameOfItsOwnUntilItCloses() {
        var state = WVJBCallbacks()
        let first = state.open("cb_1_1")
        let second = state.open("cb_1_1")  // a page may reuse its id: the hub's names still differ
        #expect(first != second)
        #expect(CallWrapper.isCallbackName(first) && CallWrapper.isCallbackName(second))
        let peeked = state.callbackId(for: first, closing: false)
        #expect(peeked == "cb_1_1")
        #expect(state.openCount == 2)
        let closed = state.callbackId(for: first, closing: true)
        let again = state.callbackId(for: first, closing: true)
        let unknown = state.callbackId(for: "dscb99", closing: true)
        #expect(closed == "cb_1_1")
        #expect(again == nil)
        #expect(unknown == nil)
        #expect(state.openCount == 1)
    }
}
