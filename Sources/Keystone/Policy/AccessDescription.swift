// AccessDescription.swift — what each origin may call, written from the registered interfaces and
// the call policy as a plain file a person reviews and a test compares.

/// What each origin may call: for each origin the policy names (and the app's own), its main frame
/// and its subframes, every method the policy lets it call, of which kind, whether durable, and
/// whether only once the page is authorised. One line per method, sorted, none padded to another's
/// width: a change that widens what an origin may call is a line added, or one that says `any time`
/// where it said `once authorised`, and nothing else moves.
///
/// It asks the policy itself (`CallPolicy/admit(_:from:access:)`), as a call would: a policy of
/// the app's own is described as faithfully as the default one. A page is taken to have declared
/// what it calls; a policy that requires declarations says so in the file's head.
struct AccessDescription {
    var policy: any CallPolicy
    /// The registered methods, by namespace.
    var interfaces: [String: [String: BridgeMethod]]
    /// The origins to describe; "any other origin" is described too when the policy lets every
    /// origin call.
    var origins: Set<String>
    /// Whether a frame's origin is admitted at all, before the policy is asked (the app's own
    /// origins, once a host serves them).
    var admitsOrigin: (CallerFrame) -> Bool

    /// The origin that stands for every other one when the policy admits every origin.
    static let anyOtherOrigin = "https://any-other-origin.invalid"

    var text: String {
        var lines = [
            "# What each origin may call, written by Keystone from the registered interfaces and the call policy.",
            "# One line per method: its kind, and whether it may be called any time or once the page is authorised;",
            "# a page is taken to have declared the methods it calls, for a policy that asks it to.",
        ]
        let declared = Set(interfaces.flatMap { namespace, methods in methods.keys.map { MethodName(namespace: namespace, name: $0).description } })
        let everyOrigin = policy.runtimeOrigins == nil && admitsOrigin(CallerFrame(isMainFrame: true, origin: Self.anyOtherOrigin))
        var described = origins.sorted()
        if everyOrigin { described.append(Self.anyOtherOrigin) }
        for origin in described {
            let shown = origin == Self.anyOtherOrigin ? "any other origin" : origin
            for (frame, where_) in [
                (CallerFrame(isMainFrame: true, origin: origin), "main frame"),
                (CallerFrame(isMainFrame: false, origin: origin, document: FrameDocument(rawValue: 1)), "subframes"),
            ] {
                lines.append("")
                lines.append("\(shown), \(where_):")
                let callable = methods(for: frame, declared: declared)
                lines += callable.isEmpty ? ["  nothing"] : callable
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines of the methods `frame` may call.
    private func methods(for frame: CallerFrame, declared: Set<String>) -> [String] {
        guard admitsOrigin(frame) else { return [] }
        var rows: [(String, String, String)] = []
        for (namespace, methods) in interfaces {
            for (name, method) in methods {
                let full = MethodName(namespace: namespace, name: name)
                func admits(authorized: Bool) -> Bool {
                    (try? policy.admit(full, from: frame, access: PageAccess(isAuthorized: authorized, declaredMethods: declared))) != nil
                }
                let when = admits(authorized: false) ? "any time" : admits(authorized: true) ? "once authorised" : nil
                guard let when else { continue }
                rows.append((full.description, method.kind.rawValue + (method.isDurable ? ", durable" : ""), when))
            }
        }
        return rows.sorted { $0.0 < $1.0 }.map { name, kind, when in "  \(name): \(kind), \(when)" }
    }
}
