// MethodList.swift — the list an interface fills with the methods the page may call.
import Foundation

/// The methods an interface exposes, each under the name the page calls it by.
///
/// Filled in ``BridgeInterface/exposeMethods(to:)``. Inputs are `Decodable`, outputs `Encodable`,
/// both `Sendable`; the page's single `data` value decodes straight into the input. A method that
/// returns nothing answers a page written for dsbridge.js or WebViewJavascriptBridge with `""`, as
/// DSBridge does, and Keystone's `invoke` with `undefined` (``Invoker/noResult``). Any method may
/// also take a ``CallContext`` after its input, to learn who called and to reach the page that
/// called. Listing a name twice is a mistake a registry refuses (`checkRegistration(namespace:)` names it).
public struct MethodList: Sendable {
    /// The methods listed so far, by name.
    public private(set) var methods: [String: BridgeMethod] = [:]
    /// Names that can never be called (empty, containing a dot, or padded with white space); a
    /// registry refuses a list that has any.
    package private(set) var invalidNames: [String] = []
    /// Names listed more than once, each once; a registry refuses a list that has any, naming them
    /// (the second listing would otherwise silently replace the first).
    package private(set) var duplicateNames: [String] = []
    /// Names ``durable(_:)`` was given that name no asynchronous method listed before it; a registry
    /// refuses a list that has any.
    package private(set) var nonDurableNames: [String] = []

    /// Creates an empty list; an interface fills it in `exposeMethods(to:)`.
    public init() {}

    /// The names listed so far.
    public var names: [String] { methods.keys.sorted() }

    /// Lists `method` under `name`: the way to add a method built by hand.
    public mutating func add(_ name: String, _ method: BridgeMethod) {
        guard Self.isValidName(name) else {
            invalidNames.append(name)
            return
        }
        if methods.updateValue(method, forKey: name) != nil, !duplicateNames.contains(name) {
            duplicateNames.append(name)
        }
    }

    /// Says what the method listed as `name` does: the page's generated declarations carry it as the
    /// method's doc comment. A name not listed yet is left alone.
    ///
    /// ```swift
    /// methods.async("signIn", signIn)
    /// methods.describe("signIn", "Signs the user in; fails with 1001 for a wrong password.")
    /// ```
    public mutating func describe(_ name: String, _ description: String) {
        guard let method = methods[name] else { return }
        methods[name] = BridgeMethod(
            invoker: method.invoker, readsByteStream: method.readsByteStream, signature: .describing(method.signature, as: description),
            isDurable: method.isDurable)
    }

    /// Makes the asynchronous method listed as `name` durable by default: a call of it the page
    /// makes without a key (dsbridge.js's `call` with a callback, or `invoke` without `durable`)
    /// runs as a durable call all the same, under a key Keystone draws. It runs to its end whatever
    /// becomes of its page, and its outcome goes to the callback if the document that made it is
    /// still there, or else to a later document of its origin through `dsBridge.recovered()`. Only
    /// a call the page makes with its own key runs once however often it is sent.
    ///
    /// ```swift
    /// methods.async("pay", pay)
    /// methods.durable("pay")
    /// ```
    /// A name that lists no asynchronous method yet is a mistake a registry refuses
    /// (`checkRegistration(namespace:)` names it): a synchronous method answers while the page
    /// waits, and a multi-response one has more than one outcome. A Keystone notes the durable
    /// methods of the lists registered through it (`Keystone.register`), not of those put in its
    /// registry some other way.
    ///
    /// A call without a callback, whose outcome nobody could hear, runs as any other.
    public mutating func durable(_ name: String) {
        guard let method = methods[name], method.kind == .async else {
            if !nonDurableNames.contains(name) { nonDurableNames.append(name) }
            return
        }
        methods[name] = BridgeMethod(invoker: method.invoker, readsByteStream: method.readsByteStream, signature: method.signature, isDurable: true)
    }

    /// What is wrong with the list as listed, if anything: a name that can never be called, a name
    /// made durable that lists no asynchronous method, or a name listed twice, each kind naming
    /// every such name. A registry refuses a list that has one.
    package var listingError: BridgeError? {
        func refusal(_ names: [String], _ message: String) -> BridgeError? {
            guard !names.isEmpty else { return nil }
            return BridgeError(code: .invalidRegistration, message: message + names.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return refusal(invalidNames, "method names cannot be empty, hold a dot or white space around them: ")
            ?? refusal(nonDurableNames, "only an asynchronous method listed before it can be made durable: ")
            ?? refusal(duplicateNames, "an interface lists a method name twice: ")
    }

    /// A method name is reachable when it is non-empty, has no dot and no surrounding white space.
    public static func isValidName(_ name: String) -> Bool {
        Substring(name).isTrimmedWord && !name.contains(".")
    }

    // MARK: Synchronous methods — answered inside the page's `prompt`.

    /// A synchronous method taking the page's `data`.
    public mutating func sync<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) throws -> Output
    ) {
        addSync(name, .json, input: .of(Input.self)) { data, serializer, context in try body(decodeInput(data, serializer, context)) }
    }

    /// A synchronous method taking the page's `data` and the call's context.
    public mutating func sync<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext) throws -> Output
    ) {
        addSync(name, .json, input: .of(Input.self)) { data, serializer, context in try body(decodeInput(data, serializer, context), context) }
    }

    /// A synchronous method that ignores `data`.
    public mutating func sync<Output: Encodable & Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> Output) {
        addSync(name, .json) { _, _, _ in try body() }
    }

    /// A synchronous method that ignores `data` and takes the call's context.
    public mutating func sync<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (CallContext) throws -> Output
    ) {
        addSync(name, .json) { _, _, context in try body(context) }
    }

    /// A synchronous method taking `data` and returning nothing.
    public mutating func sync<Input: Decodable & Sendable>(_ name: String, _ body: @escaping @Sendable (Input) throws -> Void) {
        addSync(name, .nothing, input: .of(Input.self)) { data, serializer, context in try body(decodeInput(data, serializer, context)) }
    }

    /// A synchronous method with neither argument nor result.
    public mutating func sync(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        addSync(name, .nothing) { _, _, _ in try body() }
    }

    /// A synchronous method that ignores `data`, takes the call's context, and returns nothing.
    public mutating func sync(_ name: String, _ body: @escaping @Sendable (CallContext) throws -> Void) {
        addSync(name, .nothing) { _, _, context in try body(context) }
    }

    // MARK: Synchronous methods on the main actor — for state a view model keeps there.

    /// A synchronous method that runs on the main actor, taking the page's `data`: it can read and
    /// change `@MainActor` state as it answers.
    ///
    /// Hosts answer synchronous calls on the main thread, where `body` runs at once. Called from
    /// another thread (an in-memory page in a test that is not `@MainActor`), it waits for the main
    /// actor, as the page waits for it: keep it short, and never call it from code that blocks the
    /// main thread.
    ///
    /// ```swift
    /// methods.mainActorSync("count") { (_: JSONValue?) in guestbook.names.count }
    /// ```
    public mutating func mainActorSync<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @MainActor @Sendable (Input) throws -> Output
    ) {
        addSync(name, .json, input: .of(Input.self)) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer, context)
            return try onMainActor { try body(input) }
        }
    }

    /// A synchronous method that runs on the main actor and ignores `data`.
    public mutating func mainActorSync<Output: Encodable & Sendable>(_ name: String, _ body: @escaping @MainActor @Sendable () throws -> Output) {
        addSync(name, .json) { _, _, _ in try onMainActor(body) }
    }

    // MARK: Asynchronous methods — answered once, later, through the page's callback.

    /// An asynchronous method taking the page's `data`.
    public mutating func async<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Output
    ) {
        addAsync(name, .json, input: .of(Input.self)) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer, context)
            return { try await body(input) }
        }
    }

    /// An asynchronous method taking the page's `data` and the call's context.
    public mutating func async<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext) async throws -> Output
    ) {
        addAsync(name, .json, input: .of(Input.self)) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer, context)
            return { try await body(input, context) }
        }
    }

    /// An asynchronous method that ignores `data`.
    public mutating func async<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable () async throws -> Output
    ) {
        addAsync(name, .json) { _, _, _ in { try await body() } }
    }

    /// An asynchronous method that ignores `data` and takes the call's context.
    public mutating func async<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (CallContext) async throws -> Output
    ) {
        addAsync(name, .json) { _, _, context in { try await body(context) } }
    }

    /// An asynchronous method taking `data` and returning nothing.
    public mutating func async<Input: Decodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input) async throws -> Void
    ) {
        addAsync(name, .nothing, input: .of(Input.self)) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer, context)
            return { try await body(input) }
        }
    }

    /// An asynchronous method with neither argument nor result.
    public mutating func async(_ name: String, _ body: @escaping @Sendable () async throws -> Void) {
        addAsync(name, .nothing) { _, _, _ in { try await body() } }
    }

    // MARK: Multi-response methods — any number of results, then complete or fail.

    /// A multi-response method taking the page's `data`: it writes results, then returns to complete
    /// (or finishes with a last value) or throws to fail. Cancellation of the call cancels its task.
    public mutating func multiResponse<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, ResponseWriter<Output>) async throws -> Void
    ) {
        addMultiResponse(name, input: .of(Input.self)) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer, context)
            return { writer in try await body(input, writer) }
        }
    }

    /// A multi-response method taking the page's `data` and the call's context.
    public mutating func multiResponse<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext, ResponseWriter<Output>) async throws -> Void
    ) {
        addMultiResponse(name, input: .of(Input.self)) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer, context)
            return { writer in try await body(input, context, writer) }
        }
    }

    /// A multi-response method that ignores `data`.
    public mutating func multiResponse<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (ResponseWriter<Output>) async throws -> Void
    ) {
        addMultiResponse(name) { _, _, _ in { writer in try await body(writer) } }
    }

    /// A multi-response method that ignores `data` and takes the call's context.
    public mutating func multiResponse<Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (CallContext, ResponseWriter<Output>) async throws -> Void
    ) {
        addMultiResponse(name) { _, _, context in { writer in try await body(context, writer) } }
    }

    // MARK: Handlers in WebViewJavascriptBridge's style — answer once, later, or never.

    /// A handler as WebViewJavascriptBridge's native handlers are written: it receives the page's
    /// `data` and a ``ResponseCallback`` to answer with, at most once, now or later, from any
    /// thread; or it declines to answer by letting the callback go. The callback is `nil` when the
    /// page called without one (``CallContext/hasCallback``).
    ///
    /// ```swift
    /// methods.handler("share") { (item: ShareItem, respond: ResponseCallback<Bool>?) in
    ///     shareSheet.present(item) { done in respond?(done) }   // or never calls respond
    /// }
    /// ```
    ///
    /// It is listed as a multi-response method that answers once or not at all. A handler that
    /// declines completes the call with no value: a dsbridge.js or WVJB callback never runs, as
    /// with WVJB, and Keystone's `invoke` resolves `undefined`. A throwing handler fails the call.
    public mutating func handler<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, ResponseCallback<Output>?) throws -> Void
    ) {
        addHandler(name) { input, _, respond in try body(input, respond) }
    }

    /// A handler in WebViewJavascriptBridge's style that also takes the call's context.
    public mutating func handler<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext, ResponseCallback<Output>?) throws -> Void
    ) {
        addHandler(name, body)
    }

    // MARK: Erasure — the one place each kind's types are erased.

    private mutating func addSync<Output>(
        _ name: String, _ result: ResultEncoding<Output>, input: InputDescription = .nothing,
        _ run: @escaping @Sendable (Data?, any JSONSerializer, CallContext) throws -> Output
    ) {
        // The invoker keeps only how to encode, not the rest of the result's description.
        let encode = result.encode
        add(
            name,
            BridgeMethod(
                invoker: .sync { data, serializer, context in
                    try encode(run(data, serializer, context), serializer, context.parts)
                }, readsByteStream: input.isStream, signature: MethodSignature(input: input.schema, output: result.schema)))
    }

    private mutating func addHandler<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, _ body: @escaping @Sendable (Input, CallContext, ResponseCallback<Output>?) throws -> Void
    ) {
        addMultiResponse(name, input: .of(Input.self)) { data, serializer, context in
            let input: Input = try decodeInput(data, serializer, context)
            return { (writer: ResponseWriter<Output>) in
                guard context.hasCallback else {
                    try body(input, context, nil)  // nobody waits for an answer
                    return
                }
                let answer = ResponseCallback<Output>.Answer()
                try await withTaskCancellationHandler {
                    try body(input, context, ResponseCallback(answer))
                    // The handler's own reference is gone; one it kept answers, or is let go, later.
                    if let value = try await answer.value { try await writer.finish(with: value) }
                } onCancel: {
                    answer.settle(.failure(CancellationError()))
                }
            }
        }
    }

    private mutating func addAsync<Output>(
        _ name: String, _ result: ResultEncoding<Output>, input: InputDescription = .nothing,
        _ start: @escaping @Sendable (Data?, any JSONSerializer, CallContext) throws -> @Sendable () async throws -> Output
    ) {
        // The invoker keeps only how to encode, not the rest of the result's description.
        let encode = result.encode
        add(
            name,
            BridgeMethod(
                invoker: .async { data, serializer, context in
                    let run = try start(data, serializer, context)
                    // The work keeps only the call's bytes, not its whole context.
                    let parts = context.parts
                    return { try encode(await run(), serializer, parts) }
                }, readsByteStream: input.isStream, signature: MethodSignature(input: input.schema, output: result.schema)))
    }

    private mutating func addMultiResponse<Output: Encodable & Sendable>(
        _ name: String, input: InputDescription = .nothing,
        _ start:
            @escaping @Sendable (Data?, any JSONSerializer, CallContext) throws
            -> @Sendable (ResponseWriter<Output>) async throws -> Void
    ) {
        add(
            name,
            BridgeMethod(
                invoker: .multiResponse { data, serializer, context in
                    let run = try start(data, serializer, context)
                    let parts = context.parts
                    return { sink in
                        try await run(
                            ResponseWriter { value, isFinal in
                                try await sink.send(ResultEncoding<Output>.json.encode(value, serializer, parts), isFinal: isFinal)
                            })
                    }
                }, readsByteStream: input.isStream, signature: MethodSignature(input: input.schema, output: ResultEncoding<Output>.json.schema)))
    }
}
