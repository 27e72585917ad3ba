// CallPartsTests.swift — the bytes a call moves beside its JSON: a result's parts found again from the
// markers its JSON holds, the page's parts read where its JSON names them, and a producer of parts
// kept within a window of results the page has yet to fetch.
import Foundation
import Testing

@_spi(KeystoneInternal) @testable import KeystoneInterfaces

@Suite("Call parts", .timeLimit(.minutes(1)))
struct CallPartsTests {
    struct Photo: Codable, Equatable {
        var name: String
        var bytes: Data
        var thumbs: [Data]
        var cover: Data?
    }

    let photo = Photo(name: "p", bytes: Data([1, 2]), thumbs: [Data(), Data([3])], cover: nil)

    @Test(arguments: [DefaultJSONSerializer() as any BytePartsSerializer, FoundationJSONSerializer()])
    func aResultsPartsAreFoundAgainFromItsJSONOnce(serializer: any BytePartsSerializer) throws {
        let parts = CallParts(serializer: serializer, origin: nil)
        let json = try parts.encode(photo)
        #expect(!String(decoding: json, as: UTF8.self).contains("AQI="), "no base64 in the JSON")
        let claimed = try #require(parts.claim(in: json))
        #expect(claimed.data == [Data([1, 2]), Data(), Data([3])])
        #expect(parts.claim(in: json) == nil, "claimed once")
        let inlined = claimed.inlined(into: json)
        #expect(try serializer.decode(Photo.self, from: inlined) == photo, "base64 in place reads as the same value")
    }

    @Test func twoResultsEncodedTogetherKeepTheirOwnParts() throws {
        let parts = CallParts(serializer: DefaultJSONSerializer(), origin: nil)
        let first = try parts.encode(Data([1]))
        let second = try parts.encode(Data([2]))
        #expect(parts.claim(in: second)?.data == [Data([2])])
        #expect(parts.claim(in: first)?.data == [Data([1])])
    }

    @Test func aJSONWithoutMarkersClaimsNothing() throws {
        let parts = CallParts(serializer: DefaultJSONSerializer(), origin: nil)
        _ = try parts.encode(Data([1]))
        #expect(parts.claim(in: Data(#""keystone-part:x:0""#.utf8)) == nil)
        #expect(try parts.encode(5) == Data("5".utf8))
    }

    @Test(arguments: [DefaultJSONSerializer() as any BytePartsSerializer, FoundationJSONSerializer()])
    func thePagesPartsAreReadWhereItsJSONNamesThem(serializer: any BytePartsSerializer) throws {
        let json = Data(#"{"name":"p","bytes":0,"thumbs":[1,"AwQ="],"cover":2}"#.utf8)
        let read = try serializer.decode(Photo.self, from: json, parts: [Data([1, 2]), Data(), Data([9])])
        #expect(read == Photo(name: "p", bytes: Data([1, 2]), thumbs: [Data(), Data([3, 4])], cover: Data([9])))
        #expect(throws: DecodingError.self) { try serializer.decode(Photo.self, from: Data(#"{"name":"p","bytes":3,"thumbs":[]}"#.utf8), parts: []) }
        #expect(throws: DecodingError.self) { try serializer.decode(Data.self, from: Data("0".utf8)) }
    }

    @Test func aProducerGoesOnAtOnceWhileThereIsRoom() async {
        let parts = CallParts(serializer: DefaultJSONSerializer(), origin: nil)
        for _ in 0..<(CallParts.window - 1) { parts.sent() }
        await parts.waitForRoom()
        parts.sent()
        parts.fetched()
        await parts.waitForRoom()
    }

    @Test func aProducerWaitsUntilThePageFetches() async {
        let parts = CallParts(serializer: DefaultJSONSerializer(), origin: nil)
        for _ in 0..<CallParts.window { parts.sent() }
        let resumed = Locked(false)
        let (waits, waiting) = AsyncStream<Void>.makeStream()
        let producer = Task {
            await parts.waitForRoom { waiting.yield() }
            resumed.withLock { $0 = true }
        }
        var began = waits.makeAsyncIterator()
        await began.next()
        #expect(!resumed.withLock { $0 })
        parts.fetched()
        await producer.value
        #expect(resumed.withLock { $0 })
    }

    @Test func aCancelledProducerStopsWaiting() async {
        let parts = CallParts(serializer: DefaultJSONSerializer(), origin: nil)
        for _ in 0..<CallParts.window { parts.sent() }
        let (waits, waiting) = AsyncStream<Void>.makeStream()
        let producer = Task { await parts.waitForRoom { waiting.yield() } }
        var began = waits.makeAsyncIterator()
        await began.next()
        producer.cancel()
        await producer.value
        #expect(!parts.isWaiting)
    }
}
