// NamesTests.swift — the class `Keystone` shares its module's name: `Keystone.X` names a member of
// the class, and a module selector reaches the module's own declarations past it.
import Keystone
import Testing

@Suite("Names")
struct NamesTests {
    #if compiler(>=6.3)
    @Test func aModuleSelectorReachesTheModulePastTheClassOfItsName() {
        // `Keystone.BridgeError` would be read as a member of the class; `Keystone::` is the module.
        let error = Keystone::BridgeError(code: .failed, message: "qualified")
        let hub: any Keystone::BridgeHub = Keystone::Keystone()
        #expect(error.code == .failed)
        #expect(hub.limits == Keystone::BridgeLimits())
    }
    #endif
}
