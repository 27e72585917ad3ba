// PageRelayTests.swift — the page-world relay's protocol as a value: who sent a text, and the answer
// it gets, without a browser.
import Foundation
import Keystone
import KeystoneHost
import Testing

@Suite("Page relay")
struct PageRelayTests {
    let keystone = Keystone()
    let tag = PageRelay.tagPrefix(secret: "secret")

    init() throws {
        try keystone.register(namespace: "") { $0.sync("echo") { (value: Int) in value } }
    }

    /// Runs `body` with `text`'s bytes, as the engine hands a text over.
    func with<Result>(_ text: String, _ body: (PageRelay.Bytes) -> Result) -> Result {
        var text = text
        return text.withUTF8 { body($0) }
    }

    /// The capability the isolated world of a `frame` (`top:` or `sub:` and an origin) gets.
    func capability(_ relay: inout PageRelay, frame: String = "top:http://app.example") -> String {
        guard case .answer(let capability) = with(tag + frame + "\n" + PageRelay.capabilityRequest, { relay.answerPrompt($0, defaultText: nil, hub: keystone) })
        else { return "" }
        return capability
    }

    @Test func theIsolatedWorldsTagAndARelaysCapabilitySayWhoSentAndAnythingElseIsUnattested() {
        var relay = PageRelay(secret: "secret")
        let capability = capability(&relay, frame: "sub:https://ads.example:8443")
        #expect(capability.count == FrameCapabilities.length)
        let frame = CallerFrame(isMainFrame: false, origin: "https://ads.example:8443")
        #expect(with(PageRelay.capabilityPrefix + capability + "\nrest") { relay.identify($0).0 } == .relay(frame))
        #expect(with(tag + "top:null\nrest") { relay.identify($0).0 } == .isolatedWorld(CallerFrame(isMainFrame: true, origin: nil)))
        #expect(with(PageRelay.tagPrefix(secret: "guess") + "top:https://bank.example\n") { relay.identify($0).0 } == .unattested)
        #expect(with(PageRelay.capabilityPrefix + String(repeating: "0", count: FrameCapabilities.length) + "\n") { relay.identify($0).0 } == .forgotten)
        #expect(with(PageRelay.capabilityPrefix + capability) { relay.identify($0).0 } == .unattested)  // no line after it
        #expect(with("_dsbridge=echo") { relay.identify($0).0 } == .unattested)
    }

    @Test func aSubframeDocumentsNumberInTheTagNamesItsDocumentAndItsCapabilityCarriesIt() {
        var relay = PageRelay(secret: "secret")
        let numbered = CallerFrame(isMainFrame: false, origin: "https://embed.example", document: FrameDocument(rawValue: 9_007_199_254_740_991))
        #expect(with(tag + "sub#9007199254740991:https://embed.example\n") { relay.identify($0).0 } == .isolatedWorld(numbered))
        let capability = capability(&relay, frame: "sub#9007199254740991:https://embed.example")
        #expect(with(PageRelay.capabilityPrefix + capability + "\nrest") { relay.identify($0).0 } == .relay(numbered))
        // The main frame's document is the page's; a tag with no number, or a malformed one, names none.
        #expect(with(tag + "top#5:https://app.example\n") { relay.identify($0).0 } == .isolatedWorld(CallerFrame(isMainFrame: true, origin: "https://app.example")))
        #expect(with(tag + "sub:https://embed.example\n") { relay.identify($0).0 } == .isolatedWorld(CallerFrame(isMainFrame: false, origin: "https://embed.example")))
        var nested = CallerFrame(isMainFrame: false, origin: "https://embed.example", document: FrameDocument(rawValue: 7))
        nested.nestedIn = "https://ads.example:8443"
        #expect(with(tag + "nst#7:https://embed.example https://ads.example:8443\n") { relay.identify($0).0 } == .isolatedWorld(nested))
        nested.nestedIn = ""  // a parent the world could not read
        #expect(with(tag + "nst#7:https://embed.example\n") { relay.identify($0).0 } == .isolatedWorld(nested))
        for malformed in ["sub#:https://embed.example", "sub#12https://embed.example", "sub#99999999999999999999999:https://embed.example", "sub#12"] {
            #expect(with(tag + malformed + "\n") { relay.identify($0).0 } == .unattested, "\(malformed)")
        }
    }

    @Test func aRelaysPromptIsAnsweredByTheHubOnlyWhenItsFramedLengthsHold() {
        var relay = PageRelay(secret: "secret")
        let capability = capability(&relay)
        let prompt = "_dsbridge=echo"
        let arguments = #"{"data":7}"#
        let framed = PageRelay.capabilityPrefix + capability + "\n\(prompt.utf16.count),\(arguments.utf16.count)\n" + prompt
        let answer = with(framed) { bytes in with(arguments) { relay.answerPrompt(bytes, defaultText: $0, hub: keystone) } }
        #expect(answer == .answer(#"{"code":0,"data":7}"#))
        // A default text a NUL cut short shows as a length that does not hold.
        let cut = with(framed) { bytes in with(#"{"da"#) { relay.answerPrompt(bytes, defaultText: $0, hub: keystone) } }
        #expect(cut == .answer(PostedText.Refusal.lengthMismatch))
    }

    @Test func aPageScriptsOwnPromptGoesToTheAppAndItsBridgePromptIsAnsweredAsUnattested() {
        var relay = PageRelay(secret: "secret")
        #expect(with("What is your name?") { relay.answerPrompt($0, defaultText: nil, hub: keystone) } == .pagePrompt("What is your name?"))
        let unattested = with("_dsbridge=echo") { relay.answerPrompt($0, defaultText: nil, hub: keystone) }
        guard case .answer(let answer) = unattested else {
            Issue.record("an unattested bridge prompt went unanswered")
            return
        }
        #expect(answer.contains(#""code":"#))
        // The isolated world's prompt other than a capability request is handled, unanswered.
        #expect(with(tag + "top:http://app.example\nsomething") { relay.answerPrompt($0, defaultText: nil, hub: keystone) } == .handled)
    }

    @Test func aRelaysMessagesBatchesAndConsoleLinesAreAnsweredAndRoutedAsTheProtocolSays() {
        var relay = PageRelay(secret: "secret")
        let capability = PageRelay.capabilityPrefix + capability(&relay) + "\n"
        func answer(_ text: String) -> String? {
            guard case .answer(let answer) = with(text, { relay.answerMessage($0, hub: keystone) }) else { return nil }
            return answer
        }
        #expect(answer(capability + "no line") == PostedText.Refusal.namesNoMethod)
        #expect(answer(String(repeating: "0", count: 8)) != nil)  // unattested: the hub's answer to it
        #expect(answer(PageRelay.capabilityPrefix + String(repeating: "0", count: FrameCapabilities.length) + "\nx") == PageRelay.forgottenCapability)
        let consoleLine = with(capability + PageRelay.consoleMethod + "\nwarn\nhello") { bytes -> String? in
            guard case .console(let level, let text, let frame) = relay.answerMessage(bytes, hub: keystone) else { return nil }
            return String(decoding: level, as: UTF8.self) + "|" + String(decoding: text, as: UTF8.self) + "|" + frame.description
        }
        #expect(consoleLine == "warn|hello|main frame http://app.example")
        guard case .ignored = with(capability + PageRelay.consoleMethod + "\nno level", { relay.answerMessage($0, hub: keystone) }) else {
            Issue.record("a console line without a level was not ignored")
            return
        }
        // A batch larger than any the relay makes is refused whole, framed as a batch's answers.
        let batch = capability + PostedText.batchMethod + "\n" + String(repeating: "x", count: PageRelay.batchBytes + 1)
        #expect(answer(batch)?.contains("larger than the host's limit") == true)
    }

    @Test func theIsolatedWorldsChannelCarriesTheTopDocumentsReportsAndSignalsOnly() {
        let relay = PageRelay(secret: "secret")
        let top = CallerFrame(isMainFrame: true, origin: "http://app.example")
        #expect(with(tag + "top:http://app.example\nstart doc1") { relay.documentMessage($0) } == .report("start doc1", top))
        // A numbered subframe document says only that it has ended; an unnumbered one says nothing.
        #expect(with(tag + "sub#7:https://widget.example\nframe-end") { relay.documentMessage($0) } == .subframeEnded(FrameDocument(rawValue: 7)))
        #expect(with(tag + "sub#7:https://widget.example\nstart doc2") { relay.documentMessage($0) } == nil)
        #expect(with(tag + "sub:https://widget.example\nframe-end") { relay.documentMessage($0) } == nil)
        #expect(with(tag + "top:http://app.example\nsignal https://__wvjb_queue_message__") { relay.documentMessage($0) } == .signal("https://__wvjb_queue_message__"))
        #expect(with(tag + "sub:http://app.example\nstart doc2") { relay.documentMessage($0) } == nil)
        #expect(with("start doc3") { relay.documentMessage($0) } == nil)
    }

    @Test func afterTheWebProcessEndsEveryCapabilityIsForgotten() {
        var relay = PageRelay(secret: "secret")
        let capability = capability(&relay)
        relay.forgetFrames()
        #expect(with(PageRelay.capabilityPrefix + capability + "\necho") { relay.identify($0).0 } == .forgotten)
    }
}
