// What the article on adding Keystone to an app leaves to the reader: nothing; its snippets are
// whole. (Its Apple snippets are type-checked against the WebKit stand-in, in Tests/AppleHostTypeCheck.)
import Keystone
