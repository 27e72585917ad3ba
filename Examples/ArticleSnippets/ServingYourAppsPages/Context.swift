// What the article on serving an app's pages leaves to the reader: nothing; its snippets are
// whole. (Its Apple snippets are type-checked with the Apple host on the Cocoa WebKit shim, in Tests/WebKitShim.)
import Keystone
