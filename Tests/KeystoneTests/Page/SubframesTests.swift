// SubframesTests.swift — the subframe documents a page load reaches, as a pure value.
import Foundation
import Testing

@testable import Keystone

@Suite("The subframe documents a page load reaches")
struct SubframesTests {
    func frame(nested: Bool, in parent: String = "https://ad.example") -> CallerFrame {
        var frame = CallerFrame(isMainFrame: false, origin: "https://widget.example")
        frame.nestedIn = nested ? parent : nil
        return frame
    }

    /// Frames inside frames (an ad's) take half the slots at most; the app's own frames the rest.
    @Test func framesInsideFramesTakeHalfTheSlotsAtMost() {
        var subframes = Subframes<String>(limit: 4)
        let document = { (number: UInt64) in FrameDocument(rawValue: number) }
        #expect(subframes.enter(frame(nested: true), document: document(1)) == nil)
        #expect(subframes.enter(frame(nested: true, in: "https://b.example"), document: document(2)) == nil)
        let refused = subframes.enter(frame(nested: true, in: "https://c.example"), document: document(3))
        #expect(refused?.code == .limitExceeded)
        #expect(refused?.message.contains("half of BridgeLimits.subframeDocuments") == true)
        #expect(subframes.enter(frame(nested: true), document: document(1)) == nil)  // one already kept
        #expect(subframes.enter(frame(nested: false), document: document(4)) == nil)
        #expect(subframes.enter(frame(nested: false), document: document(5)) == nil)
        #expect(subframes.enter(frame(nested: false), document: document(6))?.code == .limitExceeded)
        subframes.remove(document(1))
        #expect(subframes.enter(frame(nested: true, in: "https://c.example"), document: document(3)) == nil)
    }

    /// Frames inside frames of one parent's origin take an eighth of the slots at most: an ad's
    /// embeds leave room for those the app's widgets make.
    @Test func framesInsideFramesOfOneOriginTakeAnEighthAtMost() {
        var subframes = Subframes<String>(limit: 16)
        let document = { (number: UInt64) in FrameDocument(rawValue: number) }
        #expect(subframes.enter(frame(nested: true), document: document(1)) == nil)
        #expect(subframes.enter(frame(nested: true), document: document(2)) == nil)
        let refused = subframes.enter(frame(nested: true), document: document(3))
        #expect(refused?.code == .limitExceeded)
        #expect(refused?.message.contains("an eighth") == true)
        #expect(subframes.enter(frame(nested: true, in: "https://widget.example"), document: document(3)) == nil)
        // A frame whose parent could not be told is of no parent's origin but its own share, "".
        #expect(subframes.enter(frame(nested: true, in: ""), document: document(4)) == nil)
    }
}
