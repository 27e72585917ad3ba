// keystone-bridge.d.ts — types for the page API of Keystone's runtime (keystone-bridge.js):
// the dsbridge.js 3.1.4 surface and Keystone's extensions.

/** An error from native, or from the bridge itself: a code and a message. */
export interface KeystoneError extends Error {
  /** 'AbortError' for a call the page aborted through its signal: its code is 6 (cancelled), and
   *  the signal's reason (the DOM's AbortError, code 20, or the page's own) is its `cause`. */
  name: 'KeystoneError' | 'AbortError';
  /** 1 notFound, 2 invalidArgument, 3 unsupportedCallKind, 4 malformedMessage, 5 failed,
   *  6 cancelled, 7 pageGone, 8 unencodableValue, 10 invalidResult, 11 notAllowed,
   *  12 limitExceeded; 1000 and up: the app's own. */
  code: number;
  message: string;
  cause?: unknown;
}

/** The error object native passes as a callback's second argument when a call fails. */
export interface NativeError {
  code: number;
  message: string;
}

export interface CallOptions {
  /** Aborting cancels the native call; the promise rejects (or the stream throws) with the reason. */
  signal?: AbortSignal;
  /** Hears how many bytes have moved of `total`, in steps as they move (each piece the page sends,
   *  each chunk of a result's bytes as it is fetched) and always once at the end, `moved` equal to
   *  `total`. A ReadableStream's `total` is undefined until its end. */
  onProgress?: (moved: number, total: number | undefined) => void;
  /** `invoke` only: a buffer of the page's own for the result's bytes. When all of them fit, they
   *  are written into it from its start, and each `Uint8Array` in the result is a view of its place
   *  there; otherwise the result gets new arrays, as without it. On WebKitGTK the host's web-process
   *  extension copies Swift's bytes straight into it. Another typed array, a DataView or an
   *  ArrayBuffer is taken as its bytes; anything else is refused before the call goes (code 2). */
  into?: ArrayBufferView | ArrayBuffer;
  /** A durable call's key: see `DurableCallOptions`. */
  durable?: undefined;
}

/** `invoke` only: a durable call, under `durable` (the page's idempotency key; `true`: a new one).
 *  Native runs it once under its key for this page's origin and lets it run to its end whatever
 *  becomes of the page; sent again under the same key, it gets that call's outcome without running
 *  again. Its value's bytes move as any call's do; its outcome comes as JSON, each `Data` in it a
 *  base64 string. It cannot be aborted, and a multi-response
 *  method cannot be called so (native refuses it, code 3): neither is typed. A later document takes
 *  the outcome with `recovered()`. */
export interface DurableCallOptions {
  durable: string | true;
  signal?: never;
  onProgress?: never;
  into?: never;
}

/** A durable call of an earlier document, as `recovered()` hands it over. */
export interface RecoveredCall {
  /** The key it was made under. */
  key: string;
  /** The native method it called. */
  method: string;
  /** Its result; absent for a method that returns nothing, or one that failed. */
  value?: any;
  /** Its error, when it failed. */
  error?: NativeError;
}

/** A synchronous page handler; it may return a Promise, which is answered when it settles. */
export type SyncHandler = (...args: any[]) => unknown;
/** An asynchronous page handler: its last argument answers, any number of times until `complete`. */
export type AsyncHandler = (...args: any[]) => unknown;
export interface AsyncResponder<Answer = unknown> {
  (data?: Answer, complete?: boolean): void;
  /** Aborts when Swift withdraws its call (cancelled, timed out, a stream left early); answers
   *  after that are dropped. */
  readonly signal?: AbortSignal;
  /** A durable Swift call's id (Swift's `call(…, durable: true)`): the same in every document the
   *  call goes to until one answers, so a handler that may have seen it in a document that went
   *  (a reload, a crash) can tell; absent for any other call. */
  readonly durable?: string;
}

/** Bytes, anywhere in a value the page sends: each goes as raw bytes where native reads a `Data`
 *  (as base64 in its place where there is no byte channel). Each `Data` native sends the page is a
 *  Uint8Array. */
export type Bytes = ArrayBuffer | ArrayBufferView | Blob;
/** What a native method whose whole input is `Data` or a `ByteStream` takes: bytes, or a
 *  ReadableStream of them, which goes piece by piece, each once native has room for it (to a
 *  method taking `Data`, gathered there). */
export type ByteSource = Bytes | ReadableStream<Uint8Array>;

/** The app's native methods, each by name with its kind, input and output: empty here, and filled
 *  in by the declarations Keystone generates from the app's Swift interfaces
 *  (`Keystone.typeScriptDeclarations`). Once it is, `invoke` and `stream` take only those names,
 *  with their argument types, and resolve their result types. */
export interface KeystoneMethods {}

/** The names of the app's methods, once generated declarations list them. */
export type KeystoneMethodName = keyof KeystoneMethods;
/** A method name `invoke` takes untyped: any string until generated declarations list the app's
 *  methods, then none. */
export type UntypedMethodName = [KeystoneMethodName] extends [never] ? string : never;
/** The arguments after the method's name: its input (left out where it takes none) and options. */
export type KeystoneArguments<M extends KeystoneMethodName> = KeystoneMethods[M] extends { input: infer Input }
  ? [Input] extends [undefined] ? [data?: undefined, options?: KeystoneOptions<M>] : [data: Input, options?: KeystoneOptions<M>]
  : never;
/** A method's call options, for a call that is not durable. */
export type KeystoneOptions<M extends KeystoneMethodName> = CallOptions;
/** The arguments after the method's name for a durable call: a multi-response method has none. */
export type KeystoneDurableArguments<M extends KeystoneMethodName> = KeystoneMethods[M] extends { kind: 'multiResponse' }
  ? never
  : KeystoneMethods[M] extends { input: infer Input }
    ? [Input] extends [undefined] ? [data: undefined, options: DurableCallOptions] : [data: Input, options: DurableCallOptions]
    : never;
/** What the method answers with (each result, for a multi-response one). */
export type KeystoneOutput<M extends KeystoneMethodName> = KeystoneMethods[M] extends { output: infer Output } ? Output : never;
/** A durable call's outcome as the page gets it: kept as JSON, each `Data` in it a base64 string. */
export type KeptOutcome<T> = T extends Uint8Array
  ? string
  : T extends readonly (infer Element)[]
    ? KeptOutcome<Element>[]
    : T extends object ? { [K in keyof T]: KeptOutcome<T[K]> } : T;
/** A durable call of the typed client: a Promise of its kept outcome. */
export type KeystoneDurableCall<M extends KeystoneMethodName> = Promise<KeptOutcome<KeystoneOutput<M> extends void ? undefined : KeystoneOutput<M>>>;

/** A call of the typed client: a Promise of the result, or, for a multi-response method, the
 *  iterator of every result (iterate it in the turn it is made). */
export type KeystoneCall<M extends KeystoneMethodName> = KeystoneMethods[M] extends { kind: 'multiResponse' }
  ? AsyncIterableIterator<KeystoneOutput<M>>
  : Promise<KeystoneOutput<M> extends void ? undefined : KeystoneOutput<M>>;
/** One method of the typed client: called durably, a Promise of its kept outcome. */
export type KeystoneClientMethod<M extends KeystoneMethodName> = {
  (...rest: KeystoneDurableArguments<M>): KeystoneDurableCall<M>;
  (...rest: KeystoneArguments<M>): KeystoneCall<M>;
};
/** The page handlers Swift calls, each by name with the arguments Swift passes and the answer it
 *  reads: empty here, and filled in by declarations Keystone generates from the app's
 *  `PageDeclarations` (`Keystone.typeScriptDeclarations(page:)`). Once it is, `register` and
 *  `registerAsyn` take only those names, and type their handlers. */
export interface KeystonePageHandlers {}
/** The events Swift emits, each by name with its value: filled in the same way; `on` then takes
 *  only those names, and types its listener. */
export interface KeystoneEvents {}
export type KeystonePageHandlerName = keyof KeystonePageHandlers;
export type KeystoneEventName = keyof KeystoneEvents;
/** A handler name `register` takes untyped: any string until the page's handlers are declared. */
export type UntypedHandlerName = [KeystonePageHandlerName] extends [never] ? string : never;
/** An event name `on` takes untyped: any string until the events are declared. */
export type UntypedEventName = [KeystoneEventName] extends [never] ? string : never;
/** What Swift passes a declared handler. */
export type KeystoneHandlerArguments<N extends KeystonePageHandlerName> = KeystonePageHandlers[N] extends { input: infer Input extends unknown[] } ? Input : never;
/** What Swift reads from a declared handler's answer. */
export type KeystoneHandlerAnswer<N extends KeystonePageHandlerName> = KeystonePageHandlers[N] extends { output: infer Output } ? Output : never;

/** The app's methods as a tree of namespaces (`native.math.basic.ops.mul`): empty here, filled in
 *  by the generated declarations. */
export interface KeystoneNativeClient {}

/** `dsBridge` in a worker started with `dsBridge.worker`: every call is made by the document that
 *  started it. Bytes passed in a call are moved to the document (their buffers are emptied in the
 *  worker), and a result's bytes are moved to the worker. */
export interface WorkerBridge {
  invoke<T = any>(method: string, data?: unknown, options?: { signal?: AbortSignal; durable?: boolean | string }): Promise<T>;
  stream<T = any>(method: string, data?: unknown, options?: { signal?: AbortSignal }): AsyncIterableIterator<T>;
  /** Throws: a worker cannot wait for native. */
  call(method: string, data?: unknown): never;
}

export interface DSBridge {
  // dsbridge.js 3.1.4
  /** Synchronous: returns the native method's result. */
  call<T = any>(method: string, data?: unknown): T;
  /** Asynchronous: `callback` receives each result; on failure it receives `""` and the error. */
  call(method: string, data: unknown, callback: (result: any, error?: NativeError) => void): any;
  call(method: string, callback: (result: any, error?: NativeError) => void): any;
  /** A handler Swift calls by `name`; typed by the generated declarations of the page's side. */
  register<N extends KeystonePageHandlerName>(
    name: N, handler: (...args: KeystoneHandlerArguments<N>) => KeystoneHandlerAnswer<N> | Promise<KeystoneHandlerAnswer<N>>, async?: false): void;
  register<N extends KeystonePageHandlerName>(
    name: N, handler: (...args: [...KeystoneHandlerArguments<N>, AsyncResponder<KeystoneHandlerAnswer<N>>]) => unknown, async: true): void;
  register(name: UntypedHandlerName, handler: SyncHandler | Record<string, SyncHandler>, async?: false): void;
  register(name: UntypedHandlerName, handler: AsyncHandler | Record<string, AsyncHandler>, async: true): void;
  registerAsyn<N extends KeystonePageHandlerName>(name: N, handler: (...args: [...KeystoneHandlerArguments<N>, AsyncResponder<KeystoneHandlerAnswer<N>>]) => unknown): void;
  registerAsyn(name: UntypedHandlerName, handler: AsyncHandler | Record<string, AsyncHandler>): void;
  hasNativeMethod(name: string, type?: 'all' | 'syn' | 'asyn'): boolean;
  disableJavascriptDialogBlock(disable?: boolean): void;

  // Keystone's extensions
  /** The result of any native method (`undefined` from one that returns nothing; each `Data` in
   *  it a Uint8Array); rejects with a KeystoneError. Bytes anywhere in `data` go as raw bytes, and
   *  `data` may be a ReadableStream. */
  invoke<M extends KeystoneMethodName>(method: M, ...rest: KeystoneDurableArguments<M>): KeystoneDurableCall<M>;
  invoke<M extends KeystoneMethodName>(method: M, ...rest: KeystoneArguments<M>): Promise<KeystoneOutput<M> extends void ? undefined : KeystoneOutput<M>>;
  invoke<T = any>(method: UntypedMethodName, data?: ByteSource | unknown, options?: CallOptions | DurableCallOptions): Promise<T>;
  /** Every result of a multi-response native method (each `Data` a Uint8Array); leaving the loop
   *  early cancels it. */
  stream<M extends KeystoneMethodName>(method: M, ...rest: KeystoneArguments<M>): AsyncIterableIterator<KeystoneOutput<M>>;
  stream<T = any>(method: UntypedMethodName, data?: ByteSource | unknown, options?: CallOptions): AsyncIterableIterator<T>;
  /** The app's methods by path: `native.math.add([1, 2])` is `invoke('math.add', [1, 2])`, and a
   *  multi-response method's call, iterated at once, is its `stream`. Typed by the generated
   *  declarations; untyped until there are some. */
  native: [KeystoneMethodName] extends [never] ? any : KeystoneNativeClient;
  /** Listens to an event native emits; typed by the generated declarations of the page's side. */
  on<E extends KeystoneEventName>(event: E, listener: (value: KeystoneEvents[E]) => void): void;
  on(event: UntypedEventName, listener: (value: any) => void): void;
  /** Stops listening; without a listener, removes all of the event's listeners. */
  off(event: string, listener?: (value: any) => void): void;
  /** A dedicated worker running `url` whose global has a `dsBridge` (`WorkerBridge`) that calls
   *  native through this document, as this document. The worker starts from a `blob:` address: a
   *  Content-Security-Policy that limits workers must allow `worker-src blob:` and `url`. */
  worker(url: string | URL, options?: WorkerOptions): Worker;
  /** Presents credentials to the app's policy: whether this page load is now authorised. */
  authorize(credentials: unknown): Promise<boolean>;
  /** Declares the native methods this page will call; returns the names native lacks. */
  declare(methods: string[]): string[];
  /** The durable calls earlier documents of this page's origin made (`invoke`'s `durable`), once
   *  none still runs. Each is handed to one document until it has it: a page that goes before
   *  this resolves gets them again in its next document. */
  recovered(): Promise<RecoveredCall[]>;
  /** Marks a span of the page's own work on native's trace, beside the bridge's events: `end()`
   *  ends it; one never ended is an instant. A Keystone that does not trace is sent nothing. */
  mark(name: string): MarkedSpan;
}

/** A span `dsBridge.mark` began. */
export interface MarkedSpan {
  /** Ends the span (once). */
  end(): void;
}

/** WebViewJavascriptBridge 6's page API, as Keystone's runtime offers it. */
export interface WebViewJavascriptBridge {
  /** A handler Swift calls by `name`; it answers once through `responseCallback`, whose `signal`
   *  aborts when Swift withdraws the call, and whose `durable` is a durable call's id. */
  registerHandler(name: string, handler: (data: any, responseCallback: ((response?: unknown) => void) & { readonly signal?: AbortSignal; readonly durable?: string }) => void): void;
  /** Calls Swift's method `name` ("a.b.m": method m of namespace a.b) with one data value. The
   *  callback receives each result, or `null` and the error; without one, a Promise. */
  callHandler(name: string, data: unknown, responseCallback: (result: any, error?: NativeError) => void): void;
  callHandler(name: string, responseCallback: (result: any, error?: NativeError) => void): void;
  callHandler<T = any>(name: string, data?: unknown): Promise<T>;
  /** Upstream's spelling: handlers Swift calls then run at once instead of a turn later. */
  disableJavscriptAlertBoxSafetyTimeout(): void;
}

declare global {
  interface Window {
    dsBridge: DSBridge;
    WebViewJavascriptBridge: WebViewJavascriptBridge;
    /** setupWebViewJavascriptBridge's queue, for a page that runs before the bridge exists. */
    WVJBCallbacks?: Array<(bridge: WebViewJavascriptBridge) => void>;
    /** Set by the native host: calls go through `prompt`. */
    _dswk?: boolean;
    _dsf: Record<string, SyncHandler> & { _obs: Record<string, Record<string, SyncHandler>> };
    _dsaf: Record<string, AsyncHandler> & { _obs: Record<string, Record<string, AsyncHandler>> };
    dscb: number;
    _handleMessageFromNative(info: { method: string; callbackId: number; data: string }): void;
  }
  const dsBridge: DSBridge;
}
