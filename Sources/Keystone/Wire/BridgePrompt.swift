// BridgePrompt.swift — the `prompt` a page's runtime calls Swift's methods with.

/// The form of a bridge prompt: `prompt("_dsbridge=" + method, argumentsJSON)`.
package enum BridgePrompt {
    /// The prefix of every bridge prompt.
    package static let prefix = "_dsbridge="

    /// Whether `text` is a bridge prompt: it begins with the bytes of ``prefix``, as dsbridge.js
    /// compares them. (`String.hasPrefix` compares characters, so `"_dsbridge=\u{301}x"`, whose `=`
    /// and combining mark make one character, would not match, and the page would be left in a
    /// real dialog.) Every text for which this is `true` gets an answer.
    package static func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { $0.starts(with: prefixBytes) }
    }

    private static let prefixBytes = Array(prefix.utf8)
}
