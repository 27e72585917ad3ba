// wvjb-wire.test.js — Keystone's WebViewJavascriptBridge page script on WVJB's own wire: a queue
// the native side fetches after a navigation, and messages native delivers as JSON text.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');

const SCRIPT = fs.readFileSync(path.join(__dirname, '..', '..', 'Sources', 'Keystone', 'Resources', 'wvjb-bridge.js'), 'utf8');

/** A page with a DOM just big enough for the messaging iframe, recording each navigation it makes. */
function makePage() {
  const navigations = [];
  const frame = { style: {}, set src(url) { navigations.push(url); } };
  const context = vm.createContext({
    setTimeout, console: { log() {} },
    document: { createElement: () => frame, documentElement: { appendChild() {} } },
  });
  const window = vm.runInContext('this', context);
  context.window = window;
  const page = {
    window, navigations,
    run: (script) => vm.runInContext(script, context),
    load: () => vm.runInContext(SCRIPT, context),
    /** The raw queue, as native fetches it. */
    fetchRaw: () => JSON.parse(window.WebViewJavascriptBridge._fetchQueue()),
    /** The queue's messages, without the marker the first fetch begins with. */
    fetch: () => page.fetchRaw().filter((message) => message.keystone !== 'wvjb'),
    deliver: (message) => window.WebViewJavascriptBridge._handleMessageFromObjC(JSON.stringify(message)),
  };
  return page;
}
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

test('loading signals native through the queue URL and calls queued setup callbacks once', async () => {
  const page = makePage();
  const seen = [];
  page.window.WVJBCallbacks = [(bridge) => seen.push(typeof bridge.callHandler)];
  page.load();
  assert.deepEqual(page.navigations, ['https://__wvjb_queue_message__']);
  await turn();
  assert.deepEqual(seen, ['function']);
  assert.equal(page.window.WVJBCallbacks, undefined);
  assert.deepEqual(page.fetch(), []);
});

test('the first fetch, and only it, begins with the marker that says the page can answer _hasJavascriptMethod', async () => {
  const page = makePage();
  page.load();
  page.window.WebViewJavascriptBridge.callHandler('ping');
  assert.deepEqual(page.fetchRaw(), [{ keystone: 'wvjb' }, { handlerName: 'ping', data: null }]);
  page.window.WebViewJavascriptBridge.callHandler('ping');
  assert.deepEqual(page.fetchRaw(), [{ handlerName: 'ping', data: null }]);
});

test('a fetch hands at most the limit native names, and signals again for the rest', async () => {
  const page = makePage();
  page.load();
  page.fetch();
  for (let i = 0; i < 5; i++) page.window.WebViewJavascriptBridge.callHandler('n', i);
  const before = page.navigations.length;
  const first = JSON.parse(page.window.WebViewJavascriptBridge._fetchQueue(2));
  assert.deepEqual(first.map((m) => m.data), [0, 1]);
  assert.equal(page.navigations.length, before + 1); // signalled again: more is waiting
  assert.deepEqual(page.fetch().map((m) => m.data), [2, 3, 4]); // WVJB's own form, without a limit: all
});

test('_hasJavascriptMethod answers whether a handler is registered', async () => {
  const page = makePage();
  page.load();
  page.window.WebViewJavascriptBridge.registerHandler('known', () => {});
  page.fetch();
  page.deliver({ handlerName: '_hasJavascriptMethod', data: 'known', callbackId: 'objc_cb_1' });
  page.deliver({ handlerName: '_hasJavascriptMethod', data: 'unknown', callbackId: 'objc_cb_2' });
  await turn();
  assert.deepEqual(page.fetch().map((m) => [m.responseId, m.responseData]), [['objc_cb_1', true], ['objc_cb_2', false]]);
});

test('callHandler queues {handlerName, data, callbackId}, signals, and the response reaches the callback', async () => {
  const page = makePage();
  page.load();
  const got = [];
  page.window.WebViewJavascriptBridge.callHandler('math.add', [1, 2], (value) => got.push(value));
  page.window.WebViewJavascriptBridge.callHandler('ping', () => got.push('pong'));
  page.window.WebViewJavascriptBridge.callHandler('fireAndForget', 'x');
  assert.equal(page.navigations.length, 4);
  const queue = page.fetch();
  assert.deepEqual(queue.map((m) => [m.handlerName, m.data, typeof m.callbackId]),
    [['math.add', [1, 2], 'string'], ['ping', null, 'string'], ['fireAndForget', 'x', 'undefined']]);
  assert.deepEqual(page.fetch(), []); // fetching empties the queue
  page.deliver({ responseId: queue[0].callbackId, responseData: 3 });
  page.deliver({ responseId: queue[1].callbackId, responseData: null });
  page.deliver({ responseId: queue[0].callbackId, responseData: 'again' }); // already answered: ignored
  await turn();
  assert.deepEqual(got, [3, 'pong']);
});

test('native calls reach registered handlers, whose responses are queued with the native id', async () => {
  const page = makePage();
  page.load();
  page.window.WebViewJavascriptBridge.registerHandler('testJavascriptHandler', (data, respond) => respond({ got: data }));
  page.deliver({ handlerName: 'testJavascriptHandler', data: { foo: 'bar' }, callbackId: 'objc_cb_7' });
  page.deliver({ handlerName: 'missing', data: 1, callbackId: 'objc_cb_8' }); // no handler: no answer
  await turn();
  assert.deepEqual(JSON.parse(JSON.stringify(page.fetch())), [
    { handlerName: 'testJavascriptHandler', responseId: 'objc_cb_7', responseData: { got: { foo: 'bar' } } },
  ]);
});

test('messages are dispatched a turn later until native disables the safety timeout', async () => {
  const page = makePage();
  page.load();
  const order = [];
  page.window.WebViewJavascriptBridge.registerHandler('h', () => order.push('handler'));
  page.deliver({ handlerName: 'h', data: null });
  order.push('delivered');
  page.deliver({ handlerName: '_disableJavascriptAlertBoxSafetyTimeout', data: null });
  await turn();
  page.deliver({ handlerName: 'h', data: null });
  order.push('delivered again');
  assert.deepEqual(order, ['delivered', 'handler', 'handler', 'delivered again']);
});

test('values cross as JSON text, byte-exact', async () => {
  const page = makePage();
  page.load();
  const values = ['it\'s "quoted"', 'a\u2028b\u2029c', '</script>', '\\u0000', '😀', 'a\u0000b'];
  const got = [];
  page.window.WebViewJavascriptBridge.registerHandler('echo', (data, respond) => respond(data));
  for (const value of values) page.deliver({ handlerName: 'echo', data: value, callbackId: 'objc_cb_' + got.length });
  await turn();
  for (const message of page.fetch()) got.push(message.responseData);
  assert.deepEqual(got, values);
});
