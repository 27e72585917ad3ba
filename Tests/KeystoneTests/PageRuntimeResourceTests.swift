// PageRuntimeResourceTests.swift — the page runtime's script and types, read from the bundle.
import Foundation
import Keystone
import KeystoneTesting
import Testing

@Suite("Page runtime resource")
struct PageRuntimeResourceTests {
    @Test func theScriptAndItsTypesShipWithTheLibrary() throws {
        let script = try Keystone.pageRuntimeScript()
        #expect(script.contains("window._keystone"))
        #expect(script.contains("bridge.call('_dsb.dsinit', { runtime: 'keystone', version: 1 })"))
        #expect(try Keystone.pageRuntimeTypes().contains("interface DSBridge"))
    }
}
