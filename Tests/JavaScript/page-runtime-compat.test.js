// page-runtime-compat.test.js — keystone-bridge.js behaves as dsbridge.js 3.1.4 does for existing pages.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makePage, settle, plain, NOTHING } = require('./support/page.js');

test('defines the globals dsbridge.js defines', () => {
  const { window } = makePage();
  for (const name of ['call', 'register', 'registerAsyn', 'hasNativeMethod', 'disableJavascriptDialogBlock']) {
    assert.equal(typeof window.dsBridge[name], 'function', name);
  }
  assert.equal(typeof window._dsf._obs, 'object');
  assert.equal(typeof window._dsaf._obs, 'object');
  assert.equal(window.dscb, 0);
  assert.equal(typeof window._handleMessageFromNative, 'function');
  assert.equal(typeof window.close, 'function');
});

test('sends _dsb.dsinit once, on the next turn, announcing the runtime', async () => {
  const { native } = makePage();
  assert.equal(native.prompts.length, 0);
  await settle();
  const inits = native.prompts.filter((p) => p.method === '_dsb.dsinit');
  assert.equal(inits.length, 1);
  assert.equal(inits[0].arg.data.runtime, 'keystone');
  assert.equal(native.runtime, 'keystone');
});

test('while the document loads, dsinit waits for DOMContentLoaded and its listeners', async () => {
  const page = makePage({ runtime: false });
  const listeners = [];
  page.window.document = {
    readyState: 'loading',
    addEventListener: (type, listener) => { if (type === 'DOMContentLoaded') listeners.push(listener); },
  };
  page.loadRuntime();
  await settle();
  assert.equal(page.native.prompts.length, 0);
  // A page script registers its handler in its own DOMContentLoaded listener, after the runtime's.
  page.window.document.addEventListener('DOMContentLoaded', () => page.window.dsBridge.register('late', () => 1));
  for (const listener of listeners) listener();
  await settle();
  assert.deepEqual(page.native.prompts.map((p) => p.method), ['_dsb.dsinit']);
  page.native.callPage('late', [], 1);
  assert.deepEqual(page.native.returns, [{ id: 1, data: 1, complete: true }]);
});

test('a call without a callback is synchronous and returns .data', () => {
  const { window, native } = makePage();
  native.sync['math.add'] = (pair) => pair[0] + pair[1];
  assert.equal(window.dsBridge.call('math.add', [2, 3]), 5);
  assert.deepEqual(native.prompts.at(-1), { method: 'math.add', arg: { data: [2, 3] } });
});

test('a missing argument is sent as null, and an unhandled call returns ""', () => {
  const { window, native } = makePage();
  native.sync.pi = () => 3.14;
  assert.equal(window.dsBridge.call('pi'), 3.14);
  assert.deepEqual(native.prompts.at(-1).arg, { data: null });
  assert.equal(window.dsBridge.call('nowhere'), '');
});

test('a call with a callback is asynchronous; call(method, fn) sends {} as data', async () => {
  const { window, native } = makePage();
  await settle();
  native.async.later = (data, reply) => reply.result({ echoed: data });
  const results = [];
  window.dsBridge.call('later', (value) => results.push(value));
  const stub = native.prompts.at(-1).arg._dscbstub;
  assert.match(stub, /^dscb0_/);
  assert.deepEqual(native.prompts.at(-1).arg.data, {});
  assert.equal(window.dscb, 0); // the runtime counts its calls itself; window.dscb is the page's
  await settle();
  assert.equal(results.length, 1);
  assert.deepEqual(plain(results[0]), { echoed: {} });
  assert.equal(window[stub], undefined);
});

test('an asynchronous failure reaches the callback as "" plus the error object', async () => {
  const { window, native } = makePage();
  await settle();
  native.async.boom = (data, reply) => reply.fail(1000, 'out of paper');
  let seen;
  window.dsBridge.call('boom', 1, (...args) => { seen = args; });
  await settle();
  assert.equal(seen[0], '');
  assert.equal(seen[1].code, 1000);
  assert.equal(seen[1].message, 'out of paper');
});

test('register takes functions and namespaced objects; native finds them by name', async () => {
  const { window, native } = makePage();
  window.dsBridge.register('add', (a, b) => a + b);
  window.dsBridge.register('ns.deep', { mul: (a, b) => a * b });
  window.dsBridge.registerAsyn('later', (x, respond) => setImmediate(() => respond(x * 2)));
  window.dsBridge.registerAsyn('a.b', { ticks: (n, respond) => { for (let i = 0; i < n; i++) respond(i, i === n - 1); } });
  native.callPage('add', [2, 3], 1);
  native.callPage('ns.deep.mul', [4, 5], 2);
  native.callPage('later', [21], 3);
  native.callPage('a.b.ticks', [3], 4);
  await settle();
  const byId = (id) => native.returns.filter((r) => r.id === id).map((r) => [r.data, r.complete]);
  assert.deepEqual(byId(1), [[5, true]]);
  assert.deepEqual(byId(2), [[20, true]]);
  assert.deepEqual(byId(3), [[42, true]]);
  assert.deepEqual(byId(4), [[0, false], [1, false], [2, true]]);
});

test('the plain _handleMessageFromNative form, with data as a JSON string, works', () => {
  const { window, native } = makePage();
  window.dsBridge.register('echo', (x) => x);
  window._handleMessageFromNative({ method: 'echo', callbackId: 9, data: JSON.stringify(['\u2028"x"']) });
  assert.deepEqual(native.returns.at(-1), { id: 9, data: '\u2028"x"', complete: true });
});

test('_hasJavascriptMethod answers for plain and namespaced handlers', () => {
  const { window, native } = makePage();
  window.dsBridge.register('plain', () => 1);
  window.dsBridge.registerAsyn('ns', { m: () => 1 });
  native.callPage('_hasJavascriptMethod', ['plain'], 1);
  native.callPage('_hasJavascriptMethod', ['ns.m'], 2);
  native.callPage('_hasJavascriptMethod', ['missing'], 3);
  assert.deepEqual(native.returns.map((r) => r.data), [true, true, false]);
});

test('what every object inherits is no handler: Swift finds only what the page registered', () => {
  const { window, native } = makePage();
  class Camera { snap() { return 'snap'; } }
  window.dsBridge.register('camera', new Camera());
  window.dsBridge.register('ns', { m: () => 1 });
  const names = ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf', 'ns.toString', 'ns.constructor', 'camera.snap', 'ns.m'];
  names.forEach((name, index) => native.callPage('_hasJavascriptMethod', [name], index + 1));
  assert.deepEqual(native.returns.map((r) => r.data), [false, false, false, false, false, false, false, true, true]);
});

test('dsbridge.js answers _hasJavascriptMethod of a namespace it lacks with no data at all', () => {
  const { window, native } = makePage({ runtime: false, standin: 'before' });
  window.dsBridge.register('plain', () => 1);
  window.dsBridge.register('ns', { m: () => 1 });
  native.callPage('_hasJavascriptMethod', ['plain'], 1);
  native.callPage('_hasJavascriptMethod', ['ns.m'], 2);
  native.callPage('_hasJavascriptMethod', ['ns.other'], 3);
  native.callPage('_hasJavascriptMethod', ['nope.XX'], 4);
  assert.deepEqual(native.returns, [
    { id: 1, data: true, complete: true },
    { id: 2, data: true, complete: true },
    { id: 3, data: false, complete: true },
    { id: 4, complete: true },
  ]);
});

test('Keystone\'s runtime answers _hasJavascriptMethod of a namespace it lacks with false', () => {
  const { native } = makePage();
  native.callPage('_hasJavascriptMethod', ['nope.XX'], 1);
  assert.deepEqual(native.returns, [{ id: 1, data: false, complete: true }]);
});

test('hasNativeMethod, disableJavascriptDialogBlock and window.close reach _dsb', () => {
  const { window, native } = makePage();
  native.sync.known = () => 1;
  assert.equal(window.dsBridge.hasNativeMethod('known'), true);
  assert.deepEqual(native.prompts.at(-1).arg.data, { name: 'known', type: 'all' });
  assert.equal(window.dsBridge.hasNativeMethod('unknown', 'syn'), false);
  window.dsBridge.disableJavascriptDialogBlock();
  assert.deepEqual(native.prompts.at(-1), { method: '_dsb.disableJavascriptDialogBlock', arg: { data: { disable: true } } });
  window.close();
  assert.equal(native.closed, 1);
});

test('without _dswk there is no native: calls return undefined and send nothing', () => {
  const page = makePage({ runtime: false });
  page.window._dswk = false;
  page.loadRuntime();
  assert.equal(page.window.dsBridge.call('anything', 1), undefined);
  assert.equal(page.native.prompts.length, 0);
});

test('callback names never come from window.dscb: a page that resets it loses no answer', async () => {
  const { window, native } = makePage();
  await settle();
  const stubs = [];
  native.async.later = (data, reply) => { stubs.push(native.prompts.at(-1).arg._dscbstub); setImmediate(() => reply.result(data)); };
  const results = [];
  window.dsBridge.call('later', 'first', (value) => results.push(value));
  window.dscb = 0; // a page script that resets, or shares, the counter
  window.dsBridge.call('later', 'second', (value) => results.push(value));
  assert.notEqual(stubs[0], stubs[1]);
  await settle();
  await settle();
  assert.deepEqual(results.sort(), ['first', 'second']);
});

test('an asynchronous method called without a callback runs; the call returns at once', async () => {
  const { window, native } = makePage();
  await settle();
  const ran = [];
  native.async.track = (data) => ran.push(data);
  assert.equal(window.dsBridge.call('track', { event: 'opened' }), '');
  assert.deepEqual(ran, [{ event: 'opened' }]);
  assert.equal(native.prompts.at(-1).arg._dscbstub, undefined);
});

test('a method that returns nothing gives a dsbridge.js callback and a synchronous call ""', async () => {
  const { window, native } = makePage();
  await settle();
  native.sync.reset = () => NOTHING;
  native.async.save = (data, reply) => reply.nothing();
  assert.equal(window.dsBridge.call('reset'), '');
  const results = [];
  window.dsBridge.call('save', 1, (value) => results.push(value));
  await settle();
  assert.deepEqual(results, ['']);
});
