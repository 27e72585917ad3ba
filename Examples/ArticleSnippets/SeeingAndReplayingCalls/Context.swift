// What the article on seeing and replaying calls leaves to the reader: the app's own interface.
import Keystone

struct Cart: BridgeInterface {
    func exposeMethods(to methods: inout MethodList) {
        methods.sync("items") { () -> [String] in ["hat", "scarf"] }
    }
}
