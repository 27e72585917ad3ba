// ReachForTests.swift — the Swift API users reach for.
import Foundation
import Keystone
@_spi(KeystoneInternal) import KeystoneInterfaces
import KeystoneTesting
import Testing

@Suite("The Swift API users reach for", .timeLimit(.minutes(1)))
struct ReachForTests {
    @Test func postTakesItsArgumentsWrittenOut() throws {
        let (keystone, page) = makeBridge()
        let seen = Locked<[[JSONValue]]>([])
        page.register("page.log") { arguments in
            seen.withLock { $0.append(arguments) }
            return .null
        }
        page.initialize()
        try keystone.post("page.log", "saved", 3, true)
        try keystone.post("page.log")
        #expect(seen.withLock { $0 } == [["saved", 3, true], []])
    }

    @Test func aMultiResponseMethodMayTakeTheContextWithoutAnInput() async throws {
        let (keystone, page) = makeBridge()
        try keystone.register(namespace: "clock") { methods in
            methods.multiResponse("frames") { (context: CallContext, writer: ResponseWriter<Bool>) in
                try await writer.write(context.frame.isMainFrame)
                try await writer.finish(with: context.hasCallback)
            }
        }
        page.initialize()
        var seen: [Bool] = []
        for try await value in page.stream("clock.frames", of: Bool.self) { seen.append(value) }
        #expect(seen == [true, true])
    }

    @Test func theRegisteredInterfacesAreListedInOrder() throws {
        let keystone = Keystone()
        try keystone.register(Calculator(), namespace: "math")
        try keystone.register(namespace: "") { methods in
            methods.sync("ping") { () in "pong" }
            methods.async("later") { () async in 1 }
            methods.multiResponse("feed") { (writer: ResponseWriter<Int>) in try await writer.write(1) }
        }
        let listed = keystone.interfaceSchema.methods
        #expect(listed.filter { !$0.name.contains(".") }.map { [$0.name, $0.kind.rawValue] } == [["feed", "multiResponse"], ["later", "async"], ["ping", "sync"]])
        #expect(listed.map(\.name) == listed.map(\.name).sorted())
        #expect(listed.contains { $0.name == "math.slowAdd" && $0.kind == .async })
        keystone.removeInterface(namespace: "")
        #expect(keystone.interfaceSchema.methods.allSatisfy { $0.name.hasPrefix("math.") })
    }

    @Test func aNameListedTwiceInOneInterfaceIsRefusedNamingIt() throws {
        let keystone = Keystone()
        let error = #expect(throws: BridgeError.self) {
            try keystone.register(namespace: "files") { methods in
                methods.sync("save") { (_: String) in true }
                methods.async("save") { (_: String) async in false }
                methods.sync("open") { () in 1 }
            }
        }
        #expect(error == BridgeError(code: .invalidRegistration, message: "an interface lists a method name twice: \"save\""))
        #expect(keystone.interfaceSchema.methods.isEmpty)
    }
}
