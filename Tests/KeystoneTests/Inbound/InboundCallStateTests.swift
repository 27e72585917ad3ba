// InboundCallStateTests.swift — one running call's state as a value: its inline result and its end.
import Foundation
import Testing

@testable import Keystone

@Suite("InboundCallState")
struct InboundCallStateTests {
    let result = SingleResult.nothing

    @Test func takesAResultOfferedOnTheAnsweringThreadBeforeTheAnswer() {
        var state = InboundCallState(answeringThread: 7)
        let taken = state.offerInline(result, on: 7)
        let carried = state.closeInline()
        let sentAfter = state.send(isFinal: true)
        #expect(taken && state.isFinished)
        #expect(carried != nil)
        #expect(!sentAfter)  // the answer carried the result: nothing follows it
    }

    @Test func refusesAResultFromAnotherThreadOrAfterTheAnswer() {
        var state = InboundCallState(answeringThread: 7)
        let fromAnotherThread = state.offerInline(result, on: 8)
        let carried = state.closeInline()
        let afterTheAnswer = state.offerInline(result, on: 7)
        let sent = state.send(isFinal: true)
        #expect(!fromAnotherThread && !afterTheAnswer)
        #expect(carried == nil)
        #expect(sent)  // it goes through the callback instead
    }

    @Test func aCallWithoutTheFlagTakesNothingInline() {
        var state = InboundCallState(answeringThread: nil)
        let taken = state.offerInline(result, on: 7)
        let carried = state.closeInline()
        #expect(!taken)
        #expect(carried == nil)
    }

    @Test func sendsResultsUntilOneIsMarkedComplete() {
        var state = InboundCallState(answeringThread: nil)
        let partial = [state.send(isFinal: false), state.send(isFinal: false)]
        let finishedEarly = state.isFinished
        let final = state.send(isFinal: true)
        let after = [state.send(isFinal: false), state.send(isFinal: true)]
        #expect(partial == [true, true] && !finishedEarly)
        #expect(final && state.isFinished)
        #expect(after == [false, false])
    }

    @Test func routesASingleResultOnceInOneStep() {
        var inline = InboundCallState(answeringThread: 7)
        var plain = InboundCallState(answeringThread: nil)
        let routes = [inline.route(singleResult: result, on: 7), plain.route(singleResult: result, on: 7), plain.route(singleResult: result, on: 7)]
        #expect(routes == [.answer, .callback, .nowhere])
    }
}
