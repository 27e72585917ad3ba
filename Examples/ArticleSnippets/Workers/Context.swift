// What the article on workers leaves to the reader: nothing; its snippets are whole.
import Keystone
