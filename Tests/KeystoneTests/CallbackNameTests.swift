// CallbackNameTests.swift — which callback names a page may open: only the runtime's own form.
import Testing

@testable import Keystone

@Suite("Callback names")
struct CallbackNameTests {
    @Test(arguments: ["dscb0", "dscb12", "dscb7_abc9", "dscb123_z"])
    func theRuntimesOwnFormIsAccepted(_ name: String) {
        #expect(CallWrapper.isCallbackName(name))
    }

    @Test(arguments: [
        "", "dscb", "dscb_", "dscb_abc", "dscb1_", "dscb1x", "dscb1_A", "dscb1_a-b", "dscb1__a", "Dscb1", "eval", "dscb1_é", " dscb1",
    ])
    func anyOtherNameIsRefused(_ name: String) {
        #expect(!CallWrapper.isCallbackName(name))
    }
}
