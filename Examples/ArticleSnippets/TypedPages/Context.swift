// The typed-pages article builds on the getting-started article's snippets, which come first in
// its main.swift; it leaves nothing else to the reader.
