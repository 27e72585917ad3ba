// page.js — a fresh page in a vm context, with a scripted native side behind `prompt`: each test
// says what its native methods do, and every answer and message goes out in the form Keystone
// itself writes (fixtures/native-forms.json, NativeFormsFixtureTests).
'use strict';
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');

const RUNTIME = fs.readFileSync(
  path.join(__dirname, '..', '..', '..', 'Sources', 'Keystone', 'Resources', 'keystone-bridge.js'), 'utf8');
const STANDIN = fs.readFileSync(path.join(__dirname, 'dsbridge-standin.js'), 'utf8');

/** How Keystone answers a call and renders each message for each runtime, written by Keystone
 *  itself (NativeFormsFixtureTests): each form has holes this side fills in. */
const NATIVE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'native-forms.json'), 'utf8'));
/** `form` with each of its holes (by name, `NATIVE.holes`) given its text. */
function fill(form, texts) {
  return Object.entries(texts).reduce((out, [hole, text]) => out.split(holeText(hole)).join(text), form);
}
/** A hole as a form holds it: a run of values is the value's hole twice in an array, and
 *  dsbridge.js's arguments are the arguments' hole inside a string; a durable id's value is its
 *  hole in quotes. */
function holeText(hole) {
  if (hole === 'values') return `[${NATIVE.holes.value},${NATIVE.holes.value}]`;
  if (hole === 'dsbridgeArgs') return JSON.stringify(NATIVE.holes.args);
  if (hole === 'durableValue') return `"${NATIVE.holes.durable}"`;
  return NATIVE.holes[hole];
}
const quoted = (value) => JSON.stringify(value === undefined ? '' : value);

const ok = (data) => fill(NATIVE.forms.answers.result, { value: quoted(data) });
/** What a native method that returns nothing gives back, as Keystone marks it. */
const NOTHING = Symbol('nothing');
const answer = (value, inline) => value === NOTHING
  ? NATIVE.forms.answers[inline ? 'inlineNothing' : 'nothing']
  : fill(NATIVE.forms.answers[inline ? 'inline' : 'result'], { value: quoted(value) });
const refuse = (code, message) => fill(NATIVE.forms.answers.failure, { code: String(code), message: inner(message) });
/** The marker Keystone writes where a part goes in a value, then the part's index. */
const MARKER = 'keystone-part:00112233445566778899aabbccddeeff:';

/** The native side as the page sees it: answers prompts in Keystone's forms, and evaluates
 *  messages in the page rendered in Keystone's forms for the announced runtime. */
class FakeNative {
  constructor() {
    this.sync = {};      // method -> (data) => value, may throw {code, message}
    this.async = {};     // method -> (data, reply) => void
    this.prompts = [];   // every { method, arg }
    this.runtime = 'dsbridge';
    this.returns = [];   // _dsb.returnValue data
    this.cancels = [];   // callback names from _dsb.cancel
    this.running = new Set(); // callbacks of asynchronous calls that have not ended
    this.acknowledged = [];  // durable calls' keys from _dsb.acknowledge
    this.recoverable = [];   // what _dsb.recovered hands over
    this.closed = 0;
    this.page = null;
    this.answersInline = true; // as Keystone's default dispatcher: a sync method's result in the answer
    this.acknowledgesRuntime = true; // as Keystone: dsinit from its runtime is answered "keystone"
    this.byteChannel = false; // whether the host serves the byte channel, as dsinit's answer says
    this.traces = false; // whether native traces, and keeps the page's marks, as dsinit's answer says
    this.marks = []; // the marks `_dsb.mark` brought
    this.tickets = [];   // open tickets: { address, method, stub, data, sizes | stream, received, next }
    this.downloads = {}; // address -> bytes (a Uint8Array of this realm), until fetched
    this.lastTicket = 0;
    this.stopAfter = 0;  // a stream's reader stops after this many pieces (0: reads to the end)
    this.pieces = [];    // the sizes of the pieces of the last transfer posted
  }

  /** A call that announces parts (`_dsparts: [sizes]` or `"stream"`): a ticket, as Keystone answers;
   *  without a byte channel, refused as Keystone refuses it. */
  openTicket(method, arg) {
    if (!this.byteChannel) {
      this.send([{ callback: arg._dscbstub, release: true }]);
      return refuse(11, 'the page has no byte channel');
    }
    const address = `keystone://transfer/up${++this.lastTicket}`;
    const stream = arg._dsparts === 'stream';
    this.tickets.push({ address, method, stub: arg._dscbstub, data: arg.data, sizes: stream ? null : arg._dsparts, received: [], next: 0 });
    this.pieces = [];
    return fill(NATIVE.forms.answers.ticket, { ticket: inner(address) });
  }

  /** The byte channel, as the page's `fetch` reaches it: a POST of a ticket's piece gathers it,
   *  and once all have come runs its call (the async method receives the value with each part a
   *  Uint8Array, and the parts); a GET of a message's address answers its bytes. */
  fetch(url, init = {}) {
    if (!this.byteChannel) return Promise.reject(new TypeError('Load failed'));
    // Answered as the channel answers: `{more}` in its form, a refusal in its form and with its status.
    const answerWith = (ok, body) => {
      const text = ok
        ? NATIVE.forms.channel[body.more ? 'more' : 'done']
        : fill(NATIVE.forms.channel.refusal, { code: String(body.code), message: inner(body.message) });
      const status = ok ? 200 : Number(NATIVE.forms.channelStatus[String(body.code)]);
      return Promise.resolve({ ok, status, text: () => Promise.resolve(text) });
    };
    if ((init.method || 'GET') === 'POST') {
      const [address, query = ''] = url.split('?');
      const [kind, number] = query.split('=');
      const ticket = this.tickets.find((t) => t.address === address);
      if (!ticket || Number(number) !== ticket.next) return answerWith(false, { code: 11, message: 'no valid ticket' });
      ticket.next += 1;
      const body = init.body;
      const bytes = ArrayBuffer.isView(body) ? new Uint8Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)) : new Uint8Array(body.slice(0));
      if (kind === 'piece') {
        if (!bytes.length) return answerWith(false, { code: 4, message: 'the piece\'s bytes did not arrive' });
        ticket.received.push(bytes);
        this.pieces.push(bytes.length);
        const total = ticket.sizes ? ticket.sizes.reduce((a, b) => a + b, 0) : Infinity;
        const got = ticket.received.reduce((a, b) => a + b.length, 0);
        const stopped = this.stopAfter && ticket.received.length >= this.stopAfter;
        if (got < total && !stopped) return answerWith(true, { more: true });
      } else if (kind !== 'end' || ticket.sizes) {
        return answerWith(false, { code: 4, message: 'not a piece' });
      }
      this.tickets = this.tickets.filter((t) => t !== ticket);
      this.run(ticket);
      return answerWith(true, { more: false });
    }
    const bytes = this.downloads[url];
    delete this.downloads[url];
    if (!bytes) return answerWith(false, { code: 11, message: 'no valid ticket' });
    return Promise.resolve({ ok: true, status: 200, arrayBuffer: () => Promise.resolve(bytes.buffer.slice(0)) });
  }

  /** Runs a ticketed call with its parts: the value the page sent, each index it names a part. */
  run(ticket) {
    const all = new Uint8Array(Buffer.concat(ticket.received.map((b) => Buffer.from(b))));
    this.posted = all;
    const parts = [];
    let at = 0;
    for (const size of ticket.sizes || [all.length]) {
      parts.push(all.slice(at, at + size));
      at += size;
    }
    const value = typeof ticket.data === 'number' ? parts[ticket.data] : ticket.data;
    this.async[ticket.method](value, this.reply(ticket.stub), parts);
  }

  handle(method, argText) {
    const arg = JSON.parse(argText);
    this.prompts.push({ method, arg });
    if (arg._dsparts === 'stream' || (Array.isArray(arg._dsparts) && arg._dsparts.length)) return this.openTicket(method, arg);
    switch (method) {
      case '_dsb.dsinit':
        if (arg.data && arg.data.runtime === 'keystone') this.runtime = 'keystone';
        // As Keystone: its runtime hears that every result will come through `_keystone.deliver`,
        // and whether it has a byte channel.
        return ok(this.runtime === 'keystone' && this.acknowledgesRuntime ? { runtime: 'keystone', bytes: this.byteChannel, ...(this.traces ? { marks: true } : {}) } : undefined);
      case '_dsb.returnValue': this.returns.push(arg.data); return ok();
      // Whether a running call was cancelled, as Keystone answers.
      case '_dsb.cancel': this.cancels.push(arg.data.callback); return ok(this.running.delete(arg.data.callback));
      case '_dsb.acknowledge': this.acknowledged.push(...arg.data.keys); return ok();
      case '_dsb.recovered': this.reply(arg._dscbstub).result(this.recoverable); return ok();
      case '_dsb.closePage': this.closed += 1; return ok();
      case '_dsb.mark': this.marks.push(arg.data); return ok();
      case '_dsb.hasNativeMethod': return ok(!!(this.sync[arg.data.name] || this.async[arg.data.name]));
      case '_dsb.disableJavascriptDialogBlock': return ok();
      case '_dsb.declare': this.declared = arg.data.methods; return ok(arg.data.methods.filter((m) => !this.sync[m] && !this.async[m]));
      case '_dsb.authorize':
        this.reply(arg._dscbstub).result(JSON.stringify(arg.data) === JSON.stringify({ token: 'valid' }));
        return ok();
    }
    const stub = arg._dscbstub;
    if (this.sync[method]) {
      const inline = stub && arg._dsinline === true && this.answersInline;
      if (stub && !inline) { this.send([{ callback: stub, release: true }]); return refuse(3, `"${method}" is synchronous: call it without a callback`); }
      try {
        const value = this.sync[method](arg.data);
        return answer(value, inline);
      } catch (e) { return refuse(e.code || 5, e.message); }
    }
    if (this.async[method]) {
      // Without a callback it runs all the same, and what it answers goes nowhere.
      if (stub) this.running.add(stub);
      this.async[method](arg.data, stub ? this.reply(stub) : { result() {}, fail() {}, end() {}, nothing() {} });
      return ok();
    }
    if (stub) this.send([{ callback: stub, release: true }]);
    return refuse(1, `no method "${method}"`);
  }

  /** What an async native method answers with, later, as evaluations in the page. */
  reply(callback) {
    return {
      result: (value, complete = true) => this.send([{ callback, value, ...(complete ? { complete } : {}) }]),
      fail: (code, message) => this.send([{ callback, error: { code, message } }]),
      end: () => this.send([{ callback, complete: true }]),
      nothing: () => this.send([{ callback, value: '', void: true, complete: true }]),
      /** A `Data` result, as a part: held for the page to fetch, or base64 in the message. */
      bytes: (bytes, complete = true) => this.send([{ callback, ...this.withParts(MARKER + '0', [bytes]), ...(complete ? { complete } : {}) }]),
      /** A result `value` holding `parts` (`MARKER` and an index where each goes). */
      parts: (value, parts, complete = true) => this.send([{ callback, ...this.withParts(value, parts), ...(complete ? { complete } : {}) }]),
    };
  }

  /** `{value, parts}` as Keystone sends a value holding `parts`: fetched with a ticket where the
   *  page has a byte channel, as base64 in the message where it has none. */
  withParts(value, parts) {
    const sizes = parts.map((p) => p.length);
    if (!this.byteChannel) return { value, parts: { marker: MARKER, sizes, base64: parts.map((p) => Buffer.from(p).toString('base64')) } };
    const source = `keystone://transfer/down${++this.lastTicket}`;
    this.downloads[source] = new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))));
    return { value, parts: { marker: MARKER, sizes, ticket: source } };
  }

  /** Evaluates `messages` in the page on a later turn, rendered for its runtime. */
  send(messages) {
    for (const m of messages) if (m.callback !== undefined && (m.complete || m.error || m.release)) this.running.delete(m.callback);
    setImmediate(() => this.page.evaluate(this.render(messages)));
  }

  /** `messages` as Keystone renders them for the announced runtime, each in its form. */
  render(messages) {
    const runtime = this.runtime === 'keystone' ? 'keystone' : 'dsbridge';
    const scripts = messages.flatMap((m) => {
      // A run of values is one message to Keystone's runtime, each value a result to dsbridge.js.
      if (m.values !== undefined && runtime === 'dsbridge') {
        return m.values.map((value, i) => ({ ...m, values: undefined, value, complete: m.complete && i === m.values.length - 1 }));
      }
      return [m];
    }).map((m) => {
      const [kind, texts] = formOf(m, runtime);
      return fill(NATIVE.forms[runtime][kind], texts);
    });
    if (runtime === 'dsbridge') return scripts.join('');
    // One `deliver` of every message: each form's element, inside the batch's envelope.
    const elements = scripts.map((script) => script.slice(script.indexOf('[') + 1, script.lastIndexOf(']')));
    const batch = NATIVE.forms.batch.keystone;
    return batch.slice(0, batch.indexOf('[') + 1) + elements.join(',') + batch.slice(batch.lastIndexOf(']'));
  }

  /** Swift withdrawing its call `callbackId` of a page handler, as Keystone sends it. */
  cancelPage(callbackId) {
    this.page.evaluate(this.render([{ cancel: callbackId }]));
  }

  /** Swift calling a page handler, as Keystone sends it; `durable`: a durable call's id. */
  callPage(method, args, callbackId = 1, durable = undefined) {
    this.page.evaluate(this.render([durable === undefined ? { method, callbackId, args } : { method, callbackId, args, durable }]));
  }
}

/** A string's text inside JSON quotes. */
const inner = (value) => JSON.stringify(String(value)).slice(1, -1);

/** A message's form and the texts of its holes, for `runtime`. */
function formOf(m, runtime) {
  const callback = m.callback === undefined ? {} : { callback: inner(m.callback) };
  if (m.cancel !== undefined) return ['cancel', { callbackId: String(m.cancel) }];
  if (m.event !== undefined) return ['event', { event: inner(m.event), value: quoted(m.value) }];
  if (m.method !== undefined) {
    // The arguments' JSON as the runtime reads it: an array for Keystone's, in a string for dsbridge.js.
    const args = runtime === 'keystone' ? { args: JSON.stringify(m.args) } : { dsbridgeArgs: JSON.stringify(JSON.stringify(m.args)) };
    return [m.durable === undefined ? 'call' : 'durableCall', {
      // A durable id as given, even one Keystone never sends (not a string).
      method: inner(m.method), callbackId: String(m.callbackId), durableValue: JSON.stringify(m.durable), ...args,
    }];
  }
  if (m.error) return ['failure', { ...callback, code: String(m.error.code), message: inner(m.error.message) }];
  if (m.release) return ['release', callback];
  if (m.void) return ['noResult', callback];
  if (m.parts) {
    const source = m.parts.base64 !== undefined ? 'Base64' : 'Ticket';
    return ['parts' + source + (m.complete ? 'Complete' : ''), {
      ...callback, value: quoted(m.value), marker: inner(m.parts.marker), sizes: JSON.stringify(m.parts.sizes),
      ticket: inner(m.parts.ticket), base64: JSON.stringify(m.parts.base64 || []).slice(2, -2),
    }];
  }
  if (m.values !== undefined) return [m.complete ? 'valuesComplete' : 'values', { ...callback, values: JSON.stringify(m.values) }];
  if ('value' in m) return [m.complete ? 'resultComplete' : 'result', { ...callback, value: quoted(m.value) }];
  if (m.complete) return ['completion', callback];
  throw new Error(`no form for ${JSON.stringify(m)}`);
}

/**
 * A new page. Options: `runtime` (load keystone-bridge.js, default true), `standin: 'before' |
 * 'after'` (also load the dsbridge.js stand-in), `fastPath` (a WebKit message handler with reply),
 * `byteChannel` (native serves a byte channel, and says so when the runtime announces itself),
 * `events` (a window that hears events: `page.show(persisted)`), `hostDownload` (a relay's
 * `_keystoneHost` whose `download(address, size)` answers what it returns).
 */
function makePage(options = {}) {
  const native = new FakeNative();
  native.byteChannel = !!options.byteChannel;
  native.traces = !!options.traces;
  const context = vm.createContext({
    navigator: { userAgent: 'Test' },
    setTimeout, clearTimeout, setImmediate,
    AbortController, console, btoa, atob, Blob, Response, ReadableStream, crypto,
  });
  const window = vm.runInContext('this', context);
  context.window = window;
  window._dswk = true;
  window.fetch = (url, init) => native.fetch(url, init);
  window.prompt = (text, defaultText) => {
    if (!text.startsWith('_dsbridge=')) return null;
    return native.handle(text.slice('_dsbridge='.length), defaultText);
  };
  if (options.hostDownload) {
    // A host with a relay (WebKitGTK's): calls go through its `send`, and Swift's bytes are asked
    // of its `download` first, which answers `options.hostDownload(address, size)`.
    window._keystoneHost = {
      send: (method, argumentText) => Promise.resolve(native.handle(method, argumentText)),
      download: (address, size) => options.hostDownload(address, size),
    };
    // A host whose web-process extension carries the page's pieces: parts go in larger ones.
    if (options.hostPieceBytes) window._keystoneHost.pieceBytes = () => options.hostPieceBytes;
  }
  if (options.fastPath) {
    native.messages = [];
    window.webkit = { messageHandlers: { keystone: { postMessage: (message) => {
      native.messages.push(message);
      return Promise.resolve(native.handle(message.method, message.arguments));
    } } } };
  }
  const page = {
    window, native, context,
    evaluate: (script) => vm.runInContext(script, context),
    loadRuntime: () => vm.runInContext(RUNTIME, context),
    loadStandin: () => vm.runInContext(STANDIN, context),
    /** Callback functions left on `window` (a settled call leaves none). */
    // Callbacks still open: the runtime's own, and any `window` function a plain script would call.
    liveCallbacks: () => [...new Set([
      ...(window._keystone ? window._keystone.pendingCallbacks() : []),
      ...Object.keys(window).filter((key) => key.startsWith('dscb') && key !== 'dscb'),
    ])],
  };
  native.page = page;
  if (options.events) {
    // A window that hears events, as the engine's does: `page.show(persisted)` fires `pageshow`.
    const target = new EventTarget();
    window.addEventListener = (type, listener) => target.addEventListener(type, listener);
    page.show = (persisted) => target.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));
  }
  if (options.standin === 'before') page.loadStandin();
  if (options.runtime !== false) page.loadRuntime();
  if (options.standin === 'after') page.loadStandin();
  return page;
}

/** Lets the page's zero-delay timers (dsinit) and the native side's deliveries (`setImmediate`) run:
 *  a timer set now fires after those set before it, and each delivery gets its own turn. */
const settle = () => new Promise((resolve) => setTimeout(() => setImmediate(() => setImmediate(resolve)), 0));

/** A value from the page's realm as a plain value of this one, for structural comparison. */
const plain = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

module.exports = {
  NOTHING, MARKER, makePage, settle, plain, RUNTIME };
