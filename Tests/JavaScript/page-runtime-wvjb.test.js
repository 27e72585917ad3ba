// page-runtime-wvjb.test.js — WebViewJavascriptBridge 6's page API on Keystone's runtime.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makePage, settle, plain } = require('./support/page.js');

async function readyPage(options) {
  const page = makePage(options);
  await settle();
  return page;
}

/** Collects what a WVJB response callback receives until `count` calls or a turn with nothing. */
function collector() {
  const calls = [];
  return { calls, cb: (...args) => calls.push(plain(args)) };
}

test('the runtime offers WebViewJavascriptBridge with upstream\'s page API', async () => {
  const { window } = await readyPage();
  const api = window.WebViewJavascriptBridge;
  assert.equal(typeof api.registerHandler, 'function');
  assert.equal(typeof api.callHandler, 'function');
  assert.equal(typeof api.disableJavscriptAlertBoxSafetyTimeout, 'function');
});

test('setupWebViewJavascriptBridge callbacks queued before the runtime run once, in order, then go', async () => {
  const page = makePage({ runtime: false });
  const seen = [];
  page.window.WVJBCallbacks = [() => seen.push('first'), (bridge) => seen.push(typeof bridge.callHandler)];
  page.loadRuntime();
  assert.deepEqual(seen, ['first', 'function']);
  assert.equal(page.window.WVJBCallbacks, undefined);
  // The boilerplate run later finds the bridge and calls back at once.
  page.evaluate(`
    function setupWebViewJavascriptBridge(callback) {
      if (window.WebViewJavascriptBridge) { return callback(WebViewJavascriptBridge); }
      if (window.WVJBCallbacks) { return window.WVJBCallbacks.push(callback); }
      window.WVJBCallbacks = [callback];
    }
    setupWebViewJavascriptBridge(function () { window.setupRan = true; });`);
  assert.equal(page.window.setupRan, true);
});

test('callHandler calls Swift by its dotted name with the one data value, async or sync', async () => {
  const { window, native } = await readyPage();
  native.async['math.slowAdd'] = (pair, reply) => reply.result(pair[0] + pair[1]);
  native.sync['math.add'] = (pair) => pair[0] + pair[1];
  const slow = collector();
  const quick = collector();
  window.WebViewJavascriptBridge.callHandler('math.slowAdd', [2, 3], slow.cb);
  window.WebViewJavascriptBridge.callHandler('math.add', [4, 5], quick.cb);
  await settle();
  assert.deepEqual(slow.calls, [[5]]);
  assert.deepEqual(quick.calls, [[9]]);
  assert.deepEqual(native.prompts.filter((p) => p.method === 'math.slowAdd').map((p) => plain(p.arg.data)), [[2, 3]]);
});

test('the two-argument form sends null; without a callback it returns a Promise', async () => {
  const { window, native } = await readyPage();
  native.async.ping = (data, reply) => reply.result(data === null ? 'null data' : 'data');
  const got = collector();
  window.WebViewJavascriptBridge.callHandler('ping', got.cb);
  assert.equal(await window.WebViewJavascriptBridge.callHandler('ping', 'x'), 'data');
  await settle();
  assert.deepEqual(got.calls, [['null data']]);
});

test('a multi-response method sends each result to the callback', async () => {
  const { window, native } = await readyPage();
  native.async.count = (n, reply) => { for (let i = n; i >= 0; i--) reply.result(i, i === 0); };
  const got = collector();
  window.WebViewJavascriptBridge.callHandler('count', 2, got.cb);
  await settle();
  assert.deepEqual(got.calls, [[2], [1], [0]]);
});

test('a failure reaches the callback as null and {code, message}, and leaks nothing', async () => {
  const page = await readyPage();
  const got = collector();
  page.window.WebViewJavascriptBridge.callHandler('nowhere', 1, got.cb);
  page.native.async.fails = (data, reply) => reply.fail(1001, 'no');
  page.window.WebViewJavascriptBridge.callHandler('fails', 1, got.cb);
  await settle();
  assert.deepEqual(got.calls, [[null, { code: 1, message: 'no method "nowhere"' }], [null, { code: 1001, message: 'no' }]]);
  assert.deepEqual(page.liveCallbacks(), []);
  // Without a callback, a failure rejects the Promise (and an ignored one is no unhandled rejection).
  await assert.rejects(page.window.WebViewJavascriptBridge.callHandler('nowhere'), (error) => error.code === 1);
});

test('Swift calls registerHandler handlers with one data value and reads their response', async () => {
  const { window, native } = await readyPage();
  window.WebViewJavascriptBridge.registerHandler('testJavascriptHandler', (data, respond) => respond({ got: data }));
  window.WebViewJavascriptBridge.registerHandler('a.b', (data, respond) => respond(data * 2));
  native.callPage('testJavascriptHandler', [{ foo: 'bar' }], 1);
  native.callPage('a.b', [21], 2);
  await settle();
  assert.deepEqual(plain(native.returns), [
    { id: 1, data: { got: { foo: 'bar' } }, complete: true },
    { id: 2, data: 42, complete: true },
  ]);
});

test('a handler that throws answers Swift with an error; WVJB handlers are known to hasJavaScriptMethod', async () => {
  const { window, native } = await readyPage();
  window.WebViewJavascriptBridge.registerHandler('broken', () => { throw new Error('bad'); });
  native.callPage('broken', [], 3);
  native.callPage('_hasJavascriptMethod', ['broken'], 4);
  native.callPage('_hasJavascriptMethod', ['missing'], 5);
  await settle();
  assert.deepEqual(plain(native.returns), [
    { id: 4, data: true, complete: true },
    { id: 5, data: false, complete: true },
    { id: 3, error: { code: 5, message: 'bad' }, complete: true },
  ]);
});

test('handlers run a turn later until the page disables the safety timeout', async () => {
  const { window, native } = await readyPage();
  const order = [];
  window.WebViewJavascriptBridge.registerHandler('h', (data, respond) => { order.push('handler'); respond(null); });
  native.callPage('h', [], 1);
  order.push('after delivery');
  window.WebViewJavascriptBridge.disableJavscriptAlertBoxSafetyTimeout();
  native.callPage('h', [], 2);
  order.push('after second delivery');
  await settle();
  // The first ran a turn later; once disabled, the second ran inside its delivery.
  assert.deepEqual(order, ['after delivery', 'handler', 'after second delivery', 'handler']);
});

test('a page may use both APIs: handlers of either are callable from Swift', async () => {
  const { window, native } = await readyPage();
  window.dsBridge.register('viaDs', () => 'ds');
  window.WebViewJavascriptBridge.registerHandler('viaWvjb', (data, respond) => respond('wvjb'));
  native.callPage('viaDs', [], 1);
  native.callPage('viaWvjb', [], 2);
  await settle();
  assert.deepEqual(plain(native.returns).map((r) => r.data), ['ds', 'wvjb']);
});
