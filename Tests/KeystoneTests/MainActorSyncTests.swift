// MainActorSyncTests.swift — synchronous methods that read and change main-actor state.
import Keystone
import KeystoneTesting
import Testing

/// Main-actor state, as an app's view model keeps it.
@MainActor final class Tally {
    private(set) var names: [String] = []
    nonisolated init() {}
    func add(_ name: String) -> Int {
        names.append(name)
        return names.count
    }
}

@Suite("Synchronous methods on the main actor")
struct MainActorSyncTests {
    let tally = Tally()
    let keystone = Keystone()
    let page: InMemoryPage

    init() throws {
        try keystone.register(namespace: "tally") { [tally] methods in
            methods.mainActorSync("add") { (name: String) in tally.add(name) }
            methods.mainActorSync("count") { tally.names.count }
        }
        page = InMemoryPage(hub: keystone)
        page.initialize()
    }

    @Test func anInMemoryPageOffTheMainActorCallsThemOnIt() throws {
        #expect(try page.call("tally.add", "ada", as: Int.self) == 1)
        #expect(try page.call("tally.add", "grace", as: Int.self) == 2)
        #expect(try page.call("tally.count", as: Int.self) == 2)
    }

    @MainActor @Test func onTheMainActorTheyRunAtOnceAsAHostCallsThem() throws {
        #expect(try page.call("tally.add", "ada", as: Int.self) == 1)
        #expect(tally.names == ["ada"])
    }

    @Test func aBadArgumentIsRefusedBeforeTheMainActorIsAsked() throws {
        let error = #expect(throws: BridgeError.self) { try page.call("tally.add", 7, as: Int.self) }
        #expect(error?.code == .invalidArgument)
    }
}
