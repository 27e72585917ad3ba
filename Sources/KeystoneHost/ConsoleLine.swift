// ConsoleLine.swift — one console line of an admitted document, as a host relays it to the app.
import Keystone

/// A line the page wrote to its console (`console.log`, `info`, `warn`, `error`), relayed to the
/// app when `HostOptions/relaysConsole` is set. Only documents the hub admits can relay
/// lines, and each comes with the frame that wrote it, so a cross-origin frame can neither speak
/// for the page nor make a line look like the page's.
public struct ConsoleLine: Sendable, Hashable, CustomStringConvertible {
    /// `log`, `info`, `warn` or `error`.
    public var level: String
    /// What the page wrote, its arguments joined with spaces; new lines and carriage returns are
    /// written `\n` and `\r`, and a line longer than `BridgeLimits/consoleLineBytes` is cut, ending
    /// in `…`.
    public var text: String
    /// The frame that wrote it, as the host attests it.
    public var frame: CallerFrame

    /// Creates a line; each parameter sets the property of the same name.
    public init(level: String, text: String, frame: CallerFrame) {
        self.level = level
        self.text = text
        self.frame = frame
    }

    /// A line from the page's bytes, as `PostedText/consoleText(_:limit:)` writes it.
    package init(level: String, text bytes: UnsafeBufferPointer<UInt8>, limit: Int, frame: CallerFrame) {
        self.init(level: level, text: PostedText.consoleText(bytes, limit: limit), frame: frame)
    }

    /// The text, behind the frame when it is not the main frame: `[subframe https://b.example] text`.
    public var description: String {
        frame.isAttestedMainFrame ? text : "[\(frame)] \(text)"
    }
}
