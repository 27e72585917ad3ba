// wire-transcript.test.js — Keystone's page runtime against the wire the Swift hub speaks: the
// transcript WireTranscriptTests records (what the in-memory page sends, what the hub answers and
// has the page evaluate, and the byte channel's requests with their answers, a subframe document's
// texts beside the main frame's) is replayed step by step. The runtime must send the same texts,
// take the hub's answers and scripts, and end each step with the same result; no hand-written
// native side.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const { makePage, settle, plain } = require('./support/page.js');

/** The stream the `upload` step sends, as WireTranscriptTests writes it. */
const UPLOAD = "new ReadableStream({ start: function (c) { c.enqueue(new Uint8Array([1, 2, 3, 250])); c.enqueue(new Uint8Array([4])); c.close(); } })";
const steps = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'wire-transcript.json'), 'utf8'));

/** The hub, as the transcript recorded it: each text the page sends must be the next one recorded
 *  (its callback names read as the runtime names them), and is answered as the hub answered; the
 *  scripts the hub had the page evaluate after it are evaluated on a later turn, with the runtime's
 *  callback names in the recorded ones' places. */
class RecordedHub {
  constructor(page) {
    this.page = page;
    this.frame = null; // the subframe document's page, once there is one
    this.texts = [];
    this.names = { main: {}, frame: {} }; // recorded callback name -> the runtime's, by document
    this.failures = [];
  }

  expect(texts) {
    this.texts = texts.slice();
    this.evaluateWaiting();
  }

  /** The scripts at the head of what is left, evaluated in order on later turns. */
  evaluateWaiting() {
    while (this.texts.length && this.texts[0].kind === 'evaluate') {
      const { script, frame } = this.texts.shift();
      const names = this.names[frame ? 'frame' : 'main'];
      const renamed = Object.entries(names).reduce((s, [recorded, actual]) => s.split(`"${recorded}"`).join(`"${actual}"`), script);
      const page = frame ? this.frame : this.page;
      setImmediate(() => page.evaluate(renamed));
    }
  }

  receive(kind, method, argument, frame = false) {
    const next = this.texts.shift();
    if (!next || next.kind !== kind || next.method !== method || !!next.frame !== frame) {
      this.failures.push(`expected ${next ? `${next.kind} ${next.method}` : 'nothing'}, the page sent ${kind} ${method}`);
      return null;
    }
    const names = this.names[frame ? 'frame' : 'main'];
    const recorded = JSON.parse(next.argument ?? 'null');
    let sent = JSON.parse(argument ?? 'null');
    if (recorded && typeof recorded._dscbstub === 'string' && sent && typeof sent._dscbstub === 'string') names[recorded._dscbstub] = sent._dscbstub;
    // The runtime's callback names wherever the page names them (a cancel's), read as recorded.
    const known = Object.entries(names).reduce((text, [recorded, actual]) => text.split(`"${actual}"`).join(`"${recorded}"`), argument ?? 'null');
    sent = JSON.parse(known);
    try {
      assert.deepEqual(sent, recorded);
    } catch {
      this.failures.push(`${kind} ${method}: the page sent ${argument}, the in-memory page ${next.argument}`);
    }
    this.evaluateWaiting();
    return next.answer;
  }

  /** The page's `fetch` of the byte channel: the next text must be this request, with the same
   *  address and body; it is answered as the hub answered it. */
  async fetch(url, init = {}) {
    const method = init.method || 'GET';
    const body = init.body === undefined ? undefined : Buffer.from(await bytesOf(init.body)).toString('base64');
    const next = this.texts.shift();
    // A body the hub did not read (a stream's end) is not recorded.
    if (!next || next.kind !== 'bytes' || next.method !== method || next.argument !== url || (next.body !== undefined && next.body !== body)) {
      this.failures.push(`expected ${next ? `${next.kind} ${next.method} ${next.argument}` : 'nothing'}, the page fetched ${method} ${url}`);
      return { ok: false, status: 500, text: () => Promise.resolve('{}') };
    }
    this.evaluateWaiting();
    const bytes = method === 'GET' && next.status === 200;
    return {
      ok: next.status >= 200 && next.status < 300,
      status: next.status,
      text: () => Promise.resolve(bytes ? '' : next.answer),
      arrayBuffer: () => Promise.resolve(new Uint8Array(Buffer.from(next.answer, 'base64')).buffer),
    };
  }
}

/** What a request's body holds, as a Uint8Array. */
async function bytesOf(body) {
  if (body && typeof body.arrayBuffer === 'function' && !ArrayBuffer.isView(body)) return new Uint8Array(await body.arrayBuffer());
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return new Uint8Array(body);
}

/** Bytes as the transcript records them: their count and sum. */
function summary(bytes) {
  let sum = 0;
  for (const byte of bytes) sum += byte;
  return { count: bytes.length, sum };
}

/** The bytes 0 to `count - 1`, wrapping at 256. */
function pattern(count) {
  return Uint8Array.from({ length: count }, (_, i) => i % 256);
}

/** Sends the page's texts to `hub`, and its fetches. */
function connect(page, hub, frame) {
  const { window } = page;
  window.prompt = (text, argument) => text.startsWith('_dsbridge=') ? hub.receive('prompt', text.slice('_dsbridge='.length), argument, frame) : null;
  window.webkit.messageHandlers.keystone.postMessage = (message) => Promise.resolve(hub.receive('message', message.method, message.arguments, frame));
  window.fetch = (url, init) => hub.fetch(url, init);
}

test('the transcript covers each kind of exchange', () => {
  assert.deepEqual(steps.map((s) => s.action), [
    'initialize', 'call', 'call', 'hasNativeMethod', 'invoke', 'stream', 'durable', 'callHandler', 'handler', 'event',
    'bytes', 'durableBytes', 'subframe', 'abort', 'upload', 'timeout', 'durableHandler', 'navigate']);
  for (const kind of ['prompt', 'message', 'evaluate', 'bytes']) assert.ok(steps.some((s) => s.texts.some((t) => t.kind === kind)), kind);
  assert.ok(steps.some((s) => s.texts.some((t) => t.kind === 'bytes' && t.method === 'POST')));
  assert.ok(steps.some((s) => s.texts.some((t) => t.kind === 'bytes' && t.method === 'GET')));
  assert.ok(steps.some((s) => s.texts.some((t) => t.frame === true && t.kind === 'evaluate')));
});

/** The page's `page.kept`: answers how many bytes it was handed and whether the call was durable,
 *  unless the document holds it (`kept.holds`); `kept.heard` counts the calls it was handed. */
const kept = { holds: false, heard: 0 };
function registerKept(window) {
  kept.holds = false;
  kept.heard = 0;
  window.dsBridge.registerAsyn('page.kept', (bytes, respond) => {
    kept.heard += 1;
    if (!kept.holds) respond([ArrayBuffer.isView(bytes) ? bytes.length : -1, respond.durable ? 'durable' : 'plain']);
  });
}

test('Keystone\'s page runtime speaks the wire the Swift hub speaks, step by step', async () => {
  const page = makePage({ fastPath: true, runtime: false });
  const hub = new RecordedHub(page);
  const { window } = page;
  connect(page, hub, false);
  const heard = [];
  for (const step of steps) {
    hub.expect(step.texts);
    let result;
    switch (step.action) {
      case 'initialize':
        page.loadRuntime();
        window.dsBridge.register(step.method ?? 'page.echo', (value) => value);
        window.dsBridge.registerAsyn('page.never', () => {});
        registerKept(window);
        window.dsBridge.on('tick', (value) => heard.push(value));
        await settle();
        break;
      case 'call':
        result = window.dsBridge.call(step.method, step.argument);
        break;
      case 'hasNativeMethod':
        result = window.dsBridge.hasNativeMethod(step.method);
        break;
      case 'invoke':
        result = await window.dsBridge.invoke(step.method, step.argument);
        break;
      case 'stream':
        result = [];
        for await (const value of window.dsBridge.stream(step.method, step.argument)) result.push(value);
        break;
      case 'durable':
        result = await window.dsBridge.invoke(step.method, step.argument, { durable: step.key });
        await settle();  // the runtime acknowledges the outcome once it has it
        break;
      case 'callHandler':
        result = await new Promise((resolve) => window.WebViewJavascriptBridge.callHandler(step.method, step.argument, resolve));
        break;
      case 'handler':
        await settle();
        await settle();
        result = step.argument;  // the handler answers its argument: the hub recorded what it got back
        break;
      case 'event':
        await settle();
        result = heard.shift();
        break;
      case 'bytes':
        result = summary(await window.dsBridge.invoke(step.method, pattern(step.argument)));
        break;
      case 'durableBytes':
        // The outcome is kept as JSON: its bytes a base64 string.
        result = summary(Buffer.from(await window.dsBridge.invoke(step.method, pattern(step.argument), { durable: step.key }), 'base64'));
        await settle();
        break;
      case 'subframe': {
        const frame = makePage({ fastPath: true, runtime: false });
        hub.frame = frame;
        connect(frame, hub, true);
        frame.loadRuntime();
        await settle();
        result = await frame.window.dsBridge.invoke(step.method, step.argument);
        break;
      }
      case 'upload':
        result = await window.dsBridge.invoke(step.method, vm.runInContext(UPLOAD, page.context));
        break;
      case 'timeout':
        await settle();
        await settle();
        result = step.result;  // Swift's call timed out: the hub recorded that the page was told
        break;
      case 'durableHandler':
        await settle();
        await settle();
        result = step.result;  // the handler answered: the hub recorded what it got back
        break;
      case 'navigate': {
        // The document holds the call, then goes; the next one answers it.
        kept.holds = true;
        kept.heard = 0;
        await settle();
        await settle();
        assert.equal(kept.heard, 1, 'the first document was handed the call');
        const next = makePage({ fastPath: true, runtime: false });
        hub.page = next;
        connect(next, hub, false);
        next.loadRuntime();
        registerKept(next.window);
        await settle();
        await settle();
        result = step.result;
        break;
      }
      case 'abort': {
        const controller = new AbortController();
        const call = window.dsBridge.invoke(step.method, step.argument, { signal: controller.signal });
        await settle();
        controller.abort();
        result = await call.then(() => 'resolved', (error) => error.code);
        await settle();
        assert.deepEqual(page.liveCallbacks(), [], 'the aborted call\'s callback is closed once native has ended it');
        break;
      }
    }
    assert.deepEqual(hub.failures, [], `step ${step.action}`);
    assert.deepEqual(hub.texts, [], `step ${step.action}: the page did not send what the hub heard`);
    if (step.result !== undefined) assert.deepEqual(plain(result), step.result, `step ${step.action}`);
  }
});
