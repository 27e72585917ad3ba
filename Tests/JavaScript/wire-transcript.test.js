// wire-transcript.test.js — Keystone's page runtime against the wire the Swift hub speaks: the
// transcript WireTranscriptTests records (what the in-memory page sends, what the hub answers and
// has the page evaluate) is replayed step by step. The runtime must send the same texts, take the
// hub's answers and scripts, and end each step with the same result; no hand-written native side.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { makePage, settle, plain } = require('./support/page.js');

const steps = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'wire-transcript.json'), 'utf8'));

/** The hub, as the transcript recorded it: each text the page sends must be the next one recorded
 *  (its callback names read as the runtime names them), and is answered as the hub answered; the
 *  scripts the hub had the page evaluate after it are evaluated on a later turn, with the runtime's
 *  callback names in the recorded ones' places. */
class RecordedHub {
  constructor(page) {
    this.page = page;
    this.texts = [];
    this.names = {}; // recorded callback name -> the runtime's
    this.failures = [];
  }

  expect(texts) {
    this.texts = texts.slice();
    this.evaluateWaiting();
  }

  /** The scripts at the head of what is left, evaluated in order on later turns. */
  evaluateWaiting() {
    while (this.texts.length && this.texts[0].kind === 'evaluate') {
      const { script } = this.texts.shift();
      const renamed = Object.entries(this.names).reduce((s, [recorded, actual]) => s.split(`"${recorded}"`).join(`"${actual}"`), script);
      setImmediate(() => this.page.evaluate(renamed));
    }
  }

  receive(kind, method, argument) {
    const next = this.texts.shift();
    if (!next || next.kind !== kind || next.method !== method) {
      this.failures.push(`expected ${next ? `${next.kind} ${next.method}` : 'nothing'}, the page sent ${kind} ${method}`);
      return null;
    }
    const sent = JSON.parse(argument ?? 'null');
    const recorded = JSON.parse(next.argument ?? 'null');
    if (recorded && typeof recorded._dscbstub === 'string' && sent && typeof sent._dscbstub === 'string') {
      this.names[recorded._dscbstub] = sent._dscbstub;
      sent._dscbstub = recorded._dscbstub;
    }
    try {
      assert.deepEqual(sent, recorded);
    } catch {
      this.failures.push(`${kind} ${method}: the page sent ${argument}, the in-memory page ${next.argument}`);
    }
    this.evaluateWaiting();
    return next.answer;
  }
}

test('the transcript covers each kind of exchange', () => {
  assert.deepEqual(steps.map((s) => s.action), ['initialize', 'call', 'call', 'hasNativeMethod', 'invoke', 'stream', 'durable', 'callHandler', 'handler', 'event']);
  assert.ok(steps.some((s) => s.texts.some((t) => t.kind === 'message')));
  assert.ok(steps.some((s) => s.texts.some((t) => t.kind === 'evaluate')));
});

test('Keystone\'s page runtime speaks the wire the Swift hub speaks, step by step', async () => {
  const page = makePage({ fastPath: true, runtime: false });
  const hub = new RecordedHub(page);
  const { window } = page;
  window.prompt = (text, argument) => text.startsWith('_dsbridge=') ? hub.receive('prompt', text.slice('_dsbridge='.length), argument) : null;
  window.webkit.messageHandlers.keystone.postMessage = (message) => Promise.resolve(hub.receive('message', message.method, message.arguments));
  const heard = [];
  for (const step of steps) {
    hub.expect(step.texts);
    let result;
    switch (step.action) {
      case 'initialize':
        page.loadRuntime();
        window.dsBridge.register(step.method ?? 'page.echo', (value) => value);
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
    }
    assert.deepEqual(hub.failures, [], `step ${step.action}`);
    assert.deepEqual(hub.texts, [], `step ${step.action}: the page did not send what the hub heard`);
    if (step.result !== undefined) assert.deepEqual(plain(result), step.result, `step ${step.action}`);
  }
});
