// SecurityOriginTests.swift — origins as the engine's security model has them.
import Keystone
import KeystoneHost
import Testing

@Suite("Security origins")
struct SecurityOriginTests {
    @Test(arguments: [
        ("https://a.example", "https://a.example"),
        ("https://A.Example:443", "https://a.example"),
        ("http://127.0.0.1:80", "http://127.0.0.1"),
        ("http://127.0.0.1:8772", "http://127.0.0.1:8772"),
        ("file://", "file://"),
        ("http://[::1]:8080", "http://[::1]:8080"),
        ("http://[::1]", "http://[::1]"),
        ("keystone-app://bundle", "keystone-app://bundle"),
    ])
    func anOriginIsReadAndWrittenAsTheEngineWritesIt(text: String, written: String) throws {
        #expect(try #require(SecurityOrigin(text)).description == written)
    }

    @Test(arguments: [
        "null", "", "data:text/html,x", "https://", "https://a.example/path", "https://a.example?q", "https://u@a.example", "https://*.a.example", "https://a.example:99999", "https://a.example:",
        "1http://a",
    ])
    func anOpaqueOriginOrAnythingElseIsNoOrigin(text: String) {
        #expect(SecurityOrigin(text) == nil)
    }

    @Test func anEnginesReportWithAnEmptySchemeIsOpaqueAndPortZeroIsTheDefault() {
        #expect(SecurityOrigin(scheme: "", host: "", port: 0) == nil)
        #expect(SecurityOrigin(scheme: "https", host: "", port: 0) == nil)
        #expect(SecurityOrigin(scheme: "https", host: "a.example", port: 0)?.description == "https://a.example")
        #expect(SecurityOrigin(scheme: "http", host: "a.example", port: 8080)?.description == "http://a.example:8080")
    }
}
