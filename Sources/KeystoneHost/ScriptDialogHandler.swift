// ScriptDialogHandler.swift — how an app answers the page's own alert, confirm and prompt.
/// Answers the page's ordinary `alert`, `confirm` and `prompt` — every dialog that is not a bridge
/// call, for a host that takes them (`WebKitGTKHost.dialogHandler`). Each closure runs on the
/// host's main thread while the page waits; a closure left `nil` keeps the engine's own dialog for
/// that kind.
public struct ScriptDialogHandler: Sendable {
    /// `alert(message)`.
    public var alert: (@Sendable (_ message: String) -> Void)?
    /// `confirm(message)`: whether the user confirmed.
    public var confirm: (@Sendable (_ message: String) -> Bool)?
    /// `prompt(message, defaultText)`: the text entered, or `nil` for a cancelled prompt.
    public var prompt: (@Sendable (_ message: String, _ defaultText: String?) -> String?)?

    /// Creates a handler; a dialog without a closure keeps WebKit's own behaviour.
    public init(
        alert: (@Sendable (_ message: String) -> Void)? = nil,
        confirm: (@Sendable (_ message: String) -> Bool)? = nil,
        prompt: (@Sendable (_ message: String, _ defaultText: String?) -> String?)? = nil
    ) {
        self.alert = alert
        self.confirm = confirm
        self.prompt = prompt
    }
}
