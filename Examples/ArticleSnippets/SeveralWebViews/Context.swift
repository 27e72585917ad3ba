// What the article on several web views leaves to the reader: nothing; its snippets are whole.
import Keystone
