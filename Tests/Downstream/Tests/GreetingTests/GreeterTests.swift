// GreeterTests.swift — the app's interface tested without a browser, as its docs show.
import Greeting
import Keystone
import KeystoneTesting
import Testing

@Suite struct GreeterTests {
    @Test func helloGreetsByName() throws {
        let keystone = Keystone()
        try keystone.register(Greeter(guestbook: Guestbook()), namespace: "greeter")
        let page = InMemoryPage(hub: keystone)
        page.initialize()  // the page has registered its handlers: answers go out
        #expect(try page.call("greeter.hello", "Ada", as: String.self) == "Hello, Ada!")
    }

    @Test func helloWithoutANameIsAnInvalidArgument() throws {
        let keystone = Keystone()
        try keystone.register(Greeter(guestbook: Guestbook()), namespace: "greeter")
        let page = InMemoryPage(hub: keystone)
        page.initialize()  // the page has registered its handlers: answers go out
        #expect(throws: BridgeError.self) { try page.call("greeter.hello", "", as: String.self) }
    }

    @Test @MainActor func signingKeepsTheNamesOnTheMainActor() async throws {
        let guestbook = Guestbook()
        let keystone = Keystone()
        try keystone.register(Greeter(guestbook: guestbook), namespace: "greeter")
        let page = InMemoryPage(hub: keystone)
        page.initialize()  // the page has registered its handlers: answers go out
        #expect(try await page.callAsync("greeter.sign", "Ada", as: Int.self) == 1)
        #expect(try await page.callAsync("greeter.sign", "Grace", as: Int.self) == 2)
        #expect(guestbook.names == ["Ada", "Grace"])
    }
}
