// CallBytesTests.swift — the bytes a call moves beside its JSON: results held one at a time, and a
// producer of Data kept within a window of results the page has yet to fetch.
import Foundation
import Testing

@_spi(KeystoneInternal) @testable import KeystoneInterfaces

@Suite("Call bytes", .timeLimit(.minutes(1)))
struct CallBytesTests {
    @Test func aResultIsHeldUntilTakenOnce() {
        let bytes = CallBytes(argument: nil, takesResults: true, origin: nil)
        #expect(bytes.hold(Data([1, 2])) == CallBytes.placeholder)
        #expect(bytes.take() == Data([1, 2]))
        #expect(bytes.take() == nil)
    }

    @Test func aProducerGoesOnAtOnceWhileThereIsRoom() async {
        let bytes = CallBytes(argument: nil, takesResults: true, origin: nil)
        for _ in 0..<3 { bytes.sent() }
        await bytes.waitForRoom(window: 4)
        #expect(!bytes.isWaiting)
    }

    @Test func aProducerWaitsUntilThePageFetches() async {
        let bytes = CallBytes(argument: nil, takesResults: true, origin: nil)
        for _ in 0..<4 { bytes.sent() }
        let resumed = Locked(false)
        let producer = Task {
            await bytes.waitForRoom(window: 4)
            resumed.withLock { $0 = true }
        }
        while !bytes.isWaiting { await Task.yield() }
        #expect(!resumed.withLock { $0 })
        bytes.fetched()
        await producer.value
        #expect(resumed.withLock { $0 })
    }

    @Test func aCancelledProducerStopsWaiting() async {
        let bytes = CallBytes(argument: nil, takesResults: true, origin: nil)
        for _ in 0..<4 { bytes.sent() }
        let producer = Task { await bytes.waitForRoom(window: 4) }
        while !bytes.isWaiting { await Task.yield() }
        producer.cancel()
        await producer.value
        #expect(!bytes.isWaiting)
    }
}
