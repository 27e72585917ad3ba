// DefaultCallPolicy.swift — the default policy: frames, origins, namespaces, authorisation, declaration.
/// The default ``CallPolicy``. Each rule is off until set, and the checks run in this order:
///
/// 1. A caller the engine cannot vouch for is refused, unless ``allowsUnattested``.
/// 2. A page whose origin is not in ``allowedOrigins`` (when set) is refused; hosts give such
///    documents no runtime at all.
/// 3. A subframe is refused, unless ``allowsSubframes``.
/// 4. The protocol's own calls (`_dsb.*`) stop here: they are admitted.
/// 5. The namespace's ``NamespaceRule`` (in ``namespaceRules``, or its nearest parent's) limits the
///    origins and frames that may call it.
/// 6. With an ``authorizer``, a namespace that is not public answers only once the page load is
///    authorised.
/// 7. With ``requiresDeclaration``, a method the page load did not declare is refused.
///
/// Whatever the policy, the Keystone refuses the asynchronous calls of a subframe whose document
/// the host does not deliver to (no `CallerFrame.document`): its results would be evaluated in the
/// main frame, where the subframe's callback does not exist. A subframe document the host delivers
/// to (WebKitGTK's, through Keystone's web-process extension) gets its results in its own document.
///
/// ```swift
/// var policy = DefaultCallPolicy(allowedOrigins: ["https://shop.example", "https://pay.example.com"])
/// policy.namespaceRules["payments"] = NamespaceRule(origins: ["https://pay.example.com"])
/// policy.namespaceRules["app"] = NamespaceRule(isPublic: true)
/// policy.authorizer = { credentials, frame in try await signatures.verify(credentials, for: frame.origin) }
/// ```
public struct DefaultCallPolicy: CallPolicy {
    /// Whether calls from subframes are answered. Off by default.
    public var allowsSubframes: Bool
    /// Whether calls the engine cannot vouch for are answered, as if from a subframe of unknown
    /// origin (so ``allowsSubframes`` must be on too). Off by default.
    public var allowsUnattested: Bool
    /// The origins whose pages get the bridge (`nil`: every origin).
    public var allowedOrigins: Set<String>?
    /// Rules for namespaces, by namespace.
    public var namespaceRules: [String: NamespaceRule]
    /// Decides whether the credentials a page presents authorise it. When set, only public
    /// namespaces answer a page that is not authorised.
    public var authorizer: (@Sendable (_ credentials: JSONValue, _ frame: CallerFrame) async throws -> Bool)?
    /// Whether a page may only call the methods it declared. Off by default.
    public var requiresDeclaration: Bool

    /// Creates the policy; each parameter sets the property of the same name, and the defaults
    /// answer only the attested main frame of any origin.
    public init(
        allowsSubframes: Bool = false,
        allowsUnattested: Bool = false,
        allowedOrigins: Set<String>? = nil,
        namespaceRules: [String: NamespaceRule] = [:],
        authorizer: (@Sendable (_ credentials: JSONValue, _ frame: CallerFrame) async throws -> Bool)? = nil,
        requiresDeclaration: Bool = false
    ) {
        self.allowsSubframes = allowsSubframes
        self.allowsUnattested = allowsUnattested
        self.allowedOrigins = allowedOrigins
        self.namespaceRules = namespaceRules
        self.authorizer = authorizer
        self.requiresDeclaration = requiresDeclaration
    }

    public var runtimeOrigins: Set<String>? { allowedOrigins }

    public func admit(_ name: MethodName, from frame: CallerFrame, access: PageAccess) throws(BridgeError) {
        try admitSender(frame)
        guard name.namespace != MethodName.builtInNamespace else { return }
        let covering = ruleNamespace(for: name.namespace)
        let rule = covering.flatMap { namespaceRules[$0] }
        if let rule, let covering {
            if let origins = rule.origins, !(frame.origin.map(origins.contains) ?? false) {
                throw refusal("namespace \"\(covering)\" answers only its own origins")
            }
            if !frame.isAttestedMainFrame, !rule.allowsSubframes {
                throw refusal("namespace \"\(covering)\" answers the main frame only")
            }
        }
        if authorizer != nil, !access.isAuthorized, !(rule?.isPublic ?? false) {
            throw refusal("the page must be authorised before it calls this namespace")
        }
        if requiresDeclaration, !(access.declaredMethods?.contains(name.description) ?? false) {
            throw refusal("the page did not declare this method")
        }
    }

    public func authorize(_ credentials: JSONValue, from frame: CallerFrame) async throws -> Bool {
        guard let authorizer else { throw refusal("this app does not authorise pages") }
        return try await authorizer(credentials, frame)
    }

    /// Rules 1–3: who is calling, whatever they call.
    public func admitSender(_ frame: CallerFrame) throws(BridgeError) {
        guard frame.isAttested || allowsUnattested else {
            throw refusal("calls the engine cannot attribute to a frame are refused")
        }
        if let allowedOrigins, !(frame.origin.map(allowedOrigins.contains) ?? false) {
            throw refusal("the page's origin is not on the app's allow list")
        }
        guard frame.isAttestedMainFrame || allowsSubframes else {
            throw refusal("calls from subframes are refused")
        }
    }

    /// The namespace whose rule covers `namespace`: itself, or its nearest parent with a rule.
    private func ruleNamespace(for namespace: String) -> String? {
        guard !namespaceRules.isEmpty else { return nil }
        var candidate = namespace.utf8[...]
        while true {
            let name = String(Substring(candidate))
            if namespaceRules[name] != nil { return name }
            guard let dot = candidate.lastIndex(of: UInt8(ascii: ".")) else { return nil }
            candidate = candidate[..<dot]
        }
    }

    private func refusal(_ rule: String) -> BridgeError {
        BridgeError(code: .notAllowed, message: rule)
    }
}
