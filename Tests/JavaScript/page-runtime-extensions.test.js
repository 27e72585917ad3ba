// page-runtime-extensions.test.js — Keystone's additions: promises, streams, cancellation, events.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makePage, settle, plain, NOTHING } = require('./support/page.js');

/** A page whose runtime has announced itself, so native renders for Keystone's runtime. */
async function readyPage(options) {
  const page = makePage(options);
  await settle();
  assert.equal(page.native.runtime, 'keystone');
  return page;
}

test('invoke resolves with the result of an async native method', async () => {
  const page = await readyPage();
  page.native.async.slowAdd = (pair, reply) => reply.result(pair[0] + pair[1]);
  assert.equal(await page.window.dsBridge.invoke('slowAdd', [2, 3]), 5);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('invoke of a synchronous native method resolves in one round trip', async () => {
  const page = await readyPage();
  const { window, native } = page;
  native.sync.add = (pair) => pair[0] + pair[1];
  assert.equal(await window.dsBridge.invoke('add', [2, 3]), 5);
  const calls = native.prompts.filter((p) => p.method === 'add');
  assert.deepEqual(calls.map((p) => p.arg._dsinline), [true]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('invoke of a synchronous method falls back to a second, synchronous call when native cannot answer inline', async () => {
  const page = await readyPage();
  const { window, native } = page;
  native.answersInline = false;
  native.sync.add = (pair) => pair[0] + pair[1];
  assert.equal(await window.dsBridge.invoke('add', [2, 3]), 5);
  const calls = native.prompts.filter((p) => p.method === 'add');
  assert.equal(calls.length, 2);
  assert.equal(calls[1].arg._dscbstub, undefined);
  await settle();
  assert.deepEqual(page.liveCallbacks(), []);
});

test('dsBridge.call with a callback never asks for an inline answer, as dsbridge.js does not', async () => {
  const { window, native } = await readyPage();
  native.sync.add = (pair) => pair[0] + pair[1];
  window.dsBridge.call('add', [2, 3], () => {});
  assert.equal(native.prompts.at(-1).arg._dsinline, undefined);
});

test('invoke rejects with an Error carrying the native code and message', async () => {
  const page = await readyPage();
  const { window, native } = page;
  native.async.fail = (data, reply) => reply.fail(1000, 'no paper');
  await assert.rejects(window.dsBridge.invoke('fail'), (error) => {
    assert.ok(error instanceof window.Error);
    assert.equal(error.name, 'KeystoneError');
    assert.equal(error.code, 1000);
    assert.equal(error.message, 'no paper');
    return true;
  });
  await assert.rejects(window.dsBridge.invoke('nowhere'), (error) => error.code === 1);
  native.async.typed = () => {};
  native.sync.needsInt = () => { throw { code: 2, message: 'invalid argument for "needsInt"' }; };
  await assert.rejects(window.dsBridge.invoke('needsInt', 'x'), (error) => error.code === 2);
  await settle();
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a run of results sent together (values) reaches a stream in order, then ends it', async () => {
  const page = await readyPage();
  page.native.async.flood = (n, reply) => {
    const values = Array.from({ length: n }, (_, i) => i);
    page.native.send([{ callback: page.native.prompts.at(-1).arg._dscbstub, values, complete: true }]);
  };
  const seen = [];
  for await (const value of page.window.dsBridge.stream('flood', 5)) seen.push(value);
  assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a page callback that throws on one of a run of values still gets the rest', async () => {
  const page = await readyPage();
  const seen = [];
  page.native.async.flood = (n, reply) => {
    page.native.send([{ callback: page.native.prompts.at(-1).arg._dscbstub, values: [1, 2, 3] }]);
  };
  page.window.dsBridge.call('flood', 3, (value) => { seen.push(value); if (value === 1) throw new Error('page bug'); });
  await settle();
  assert.deepEqual(seen, [1, 2, 3]);
});

test('stream yields every result, then ends', async () => {
  const page = await readyPage();
  page.native.async.countdown = (n, reply) => {
    for (let i = n; i >= 0; i--) reply.result(i, false);
    reply.end();
  };
  const seen = [];
  for await (const n of page.window.dsBridge.stream('countdown', 3)) seen.push(n);
  assert.deepEqual(seen, [3, 2, 1, 0]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('stream throws the native failure after the results before it', async () => {
  const page = await readyPage();
  page.native.async.dry = (n, reply) => { reply.result('a', false); reply.fail(1002, 'ran dry'); };
  const seen = [];
  await assert.rejects(async () => {
    for await (const item of page.window.dsBridge.stream('dry')) seen.push(item);
  }, (error) => error.code === 1002 && error.message === 'ran dry');
  assert.deepEqual(seen, ['a']);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('leaving a stream early cancels the native call and frees the callback', async () => {
  const page = await readyPage();
  let callback;
  page.native.async.forever = (data, reply) => {
    callback = page.native.prompts.at(-1).arg._dscbstub;
    reply.result(1, false);
    reply.result(2, false);
  };
  for await (const n of page.window.dsBridge.stream('forever')) {
    assert.equal(n, 1);
    break;
  }
  assert.deepEqual(page.native.cancels, [callback]);
  await settle(); // a late result for the cancelled call is ignored
  assert.deepEqual(page.liveCallbacks(), []);
});

test('aborting an invoke tells native, rejects with an AbortError and frees the callback', async () => {
  const page = await readyPage();
  page.native.async.slow = () => {}; // never answers
  const controller = new AbortController();
  const pending = page.window.dsBridge.invoke('slow', 1, { signal: controller.signal });
  const callback = page.native.prompts.at(-1).arg._dscbstub;
  controller.abort();
  await assert.rejects(pending, (error) => error.name === 'AbortError');
  assert.deepEqual(page.native.cancels, [callback]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('an already aborted signal rejects at once and calls nothing', async () => {
  const page = await readyPage();
  const controller = new AbortController();
  controller.abort(new Error('gave up'));
  const before = page.native.prompts.length;
  await assert.rejects(page.window.dsBridge.invoke('anything', 1, { signal: controller.signal }),
    (error) => error.name === 'AbortError' && error.code === 6 && error.cause.message === 'gave up');
  assert.equal(page.native.prompts.length, before);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('aborting a stream ends its loop with the abort reason', async () => {
  const page = await readyPage();
  page.native.async.ticks = (data, reply) => reply.result(0, false);
  const controller = new AbortController();
  await assert.rejects(async () => {
    for await (const tick of page.window.dsBridge.stream('ticks', null, { signal: controller.signal })) {
      assert.equal(tick, 0);
      controller.abort();
    }
  }, (error) => error.name === 'AbortError');
  assert.equal(page.native.cancels.length, 1);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('aborting a stream drops results that arrived in the same batch', async () => {
  const page = await readyPage();
  page.native.async.burst = (data, reply) => page.native.send([1, 2, 3].map((value) => ({
    callback: page.native.prompts.at(-1).arg._dscbstub, value,
  })));
  const controller = new AbortController();
  const seen = [];
  await assert.rejects(async () => {
    for await (const n of page.window.dsBridge.stream('burst', null, { signal: controller.signal })) {
      seen.push(n);
      controller.abort();
    }
  }, (error) => error.name === 'AbortError');
  assert.deepEqual(seen, [1]);
});

test('a sync-registered handler may return a promise; it is answered when it settles', async () => {
  const { window, native } = await readyPage();
  window.dsBridge.register('later', (x) => new window.Promise((resolve) => setImmediate(() => resolve(x + 1))));
  native.callPage('later', [41], 5);
  assert.deepEqual(native.returns, []);
  await settle();
  assert.deepEqual(native.returns, [{ id: 5, data: 42, complete: true }]);
});

test('a handler that throws or rejects answers Swift with a coded error', async () => {
  const { window, native } = await readyPage();
  window.dsBridge.register('throws', () => { const e = new Error('bad input'); e.code = 1300; throw e; });
  window.dsBridge.register('rejects', () => window.Promise.reject(new Error('no luck')));
  window.dsBridge.registerAsyn('asyncThrows', () => { throw new Error('async boom'); });
  native.callPage('throws', [], 1);
  native.callPage('rejects', [], 2);
  native.callPage('asyncThrows', [], 3);
  native.callPage('missing', [], 4);
  await settle();
  const byId = Object.fromEntries(native.returns.map((r) => [r.id, r]));
  assert.deepEqual(byId[1], { id: 1, error: { code: 1300, message: 'bad input' }, complete: true });
  assert.deepEqual(byId[2], { id: 2, error: { code: 5, message: 'no luck' }, complete: true });
  assert.deepEqual(byId[3].error, { code: 5, message: 'async boom' });
  assert.equal(byId[4].error.code, 1);
});

test('events reach every listener; off removes one or all; a throwing listener stops none', async () => {
  const { window, native } = await readyPage();
  const heard = [];
  const first = (v) => heard.push(['first', plain(v)]);
  window.dsBridge.on('login', () => { throw new Error('listener bug'); });
  window.dsBridge.on('login', first);
  window.dsBridge.on('login', (v) => heard.push(['second', plain(v)]));
  native.send([{ event: 'login', value: { user: 'ada' } }]);
  await settle();
  window.dsBridge.off('login', first);
  native.send([{ event: 'login', value: 2 }]);
  await settle();
  window.dsBridge.off('login');
  native.send([{ event: 'login', value: 3 }]);
  await settle();
  assert.deepEqual(heard, [['first', { user: 'ada' }], ['second', { user: 'ada' }], ['second', 2]]);
});

test('one evaluation delivers many messages; a throwing callback stops none and leaks nothing', async () => {
  const page = await readyPage();
  const { window, native } = page;
  native.async.a = () => {};
  native.async.b = () => {};
  const results = [];
  window.dsBridge.call('a', 1, () => { throw new Error('callback bug'); });
  const first = native.prompts.at(-1).arg._dscbstub;
  window.dsBridge.call('b', 1, (v) => results.push(v));
  const second = native.prompts.at(-1).arg._dscbstub;
  window.dsBridge.register('h', () => 'handled');
  native.send([
    { callback: first, value: 'x', complete: true },
    { callback: second, value: 'y', complete: true },
    { method: 'h', callbackId: 7, args: [] },
    { event: 'nobody', value: 1 },
  ]);
  await settle();
  assert.deepEqual(results, ['y']);
  assert.deepEqual(native.returns, [{ id: 7, data: 'handled', complete: true }]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('callback names are unique per page load; an old page’s late result reaches nothing', async () => {
  const one = await readyPage();
  const two = await readyPage();
  one.native.async.x = () => {};
  two.native.async.x = () => {};
  one.window.dsBridge.call('x', 1, () => {});
  let reached = false;
  two.window.dsBridge.call('x', 1, () => { reached = true; });
  const oldName = one.native.prompts.at(-1).arg._dscbstub;
  const newName = two.native.prompts.at(-1).arg._dscbstub;
  assert.notEqual(oldName, newName);
  two.native.send([{ callback: oldName, value: 'late', complete: true }]);
  await settle();
  assert.equal(reached, false);
});

test('asynchronous calls take the script-message fast path when the host has one', async () => {
  const { window, native } = await readyPage({ fastPath: true });
  native.async.slowAdd = (pair, reply) => reply.result(pair[0] + pair[1]);
  native.sync.add = (pair) => pair[0] + pair[1];
  assert.equal(await window.dsBridge.invoke('slowAdd', [1, 2]), 3);
  assert.deepEqual(native.messages.map((m) => m.method), ['slowAdd']);
  assert.equal(window.dsBridge.call('add', [1, 2]), 3); // sync calls always use prompt
  assert.equal(native.messages.length, 1);
});

test('a transport the host provides is preferred for asynchronous calls', async () => {
  const page = makePage({ runtime: false, fastPath: true });
  const sent = [];
  page.window._keystoneHost = {
    send: (method, text) => { sent.push(method); return page.native.handle(method, text); },
  };
  page.loadRuntime();
  await settle();
  page.native.async.slowAdd = (pair, reply) => reply.result(pair[0] + pair[1]);
  assert.equal(await page.window.dsBridge.invoke('slowAdd', [1, 2]), 3);
  assert.deepEqual(sent, ['slowAdd']);
  assert.deepEqual(page.native.messages, []);
});

test('once native answers dsinit with "keystone", a call opens no window function', async () => {
  const page = makePage();
  const replies = [];
  page.native.async.slow = (x, reply) => replies.push(() => reply.result(x * 2));
  const before = page.window.dsBridge.invoke('slow', 1); // opened before dsinit: plain scripts may call it
  assert.equal(Object.keys(page.window).filter((key) => /^dscb\d/.test(key)).length, 1);
  await settle();
  assert.equal(page.native.runtime, 'keystone');
  const after = page.window.dsBridge.invoke('slow', 2);
  assert.equal(Object.keys(page.window).filter((key) => /^dscb\d/.test(key)).length, 1, 'only the earlier call has one');
  assert.equal(page.window._keystone.pendingCallbacks().length, 2);
  replies.forEach((reply) => reply());
  assert.deepEqual([await before, await after], [2, 4]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a native side that does not answer dsinit so keeps a window function for every call', async () => {
  const page = makePage();
  page.native.acknowledgesRuntime = false;
  page.native.async.slow = (x, reply) => setTimeout(() => reply.result(x * 2), 0);
  await settle();
  const call = page.window.dsBridge.invoke('slow', 3);
  assert.equal(Object.keys(page.window).filter((key) => /^dscb\d/.test(key)).length, 1);
  assert.equal(await call, 6);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('results sent as plain dsbridge scripts still settle a promise', async () => {
  const page = makePage();
  page.native.async.slow = (x, reply) => reply.result(x * 2);
  // Before dsinit is processed native writes plain scripts; the runtime's callbacks take them too.
  assert.equal(await page.window.dsBridge.invoke('slow', 21), 42);
});

test('authorize presents credentials and resolves with the policy\'s verdict', async () => {
  const { window, native } = await readyPage();
  assert.equal(await window.dsBridge.authorize({ token: 'forged' }), false);
  assert.equal(await window.dsBridge.authorize({ token: 'valid' }), true);
  const sent = native.prompts.filter((p) => p.method === '_dsb.authorize').map((p) => p.arg);
  assert.deepEqual(sent.map((arg) => arg.data), [{ token: 'forged' }, { token: 'valid' }]);
  assert.ok(sent.every((arg) => typeof arg._dscbstub === 'string'));
});

test('declare names the methods the page will call and returns those native lacks', async () => {
  const { window, native } = await readyPage();
  native.sync.add = () => 0;
  assert.deepEqual([...window.dsBridge.declare(['add', 'camera.snap'])], ['camera.snap']);
  assert.deepEqual(native.declared, ['add', 'camera.snap']);
});

test('an aborted call rejects with code 6 (cancelled), never the DOM\'s 20; the signal\'s reason is its cause', async () => {
  const page = await readyPage();
  page.native.async.slow = () => {}; // never answers
  const controller = new AbortController();
  const pending = page.window.dsBridge.invoke('slow', 1, { signal: controller.signal });
  controller.abort(); // the DOM's own reason: a DOMException AbortError, code 20
  const error = await pending.then(() => null, (e) => e);
  assert.equal(error.name, 'AbortError');
  assert.equal(error.code, 6);
  assert.equal(error.cause.name, 'AbortError');
  assert.equal(error.cause.code, 20);
  const streamController = new AbortController();
  page.native.async.ticks = (data, reply) => reply.result(0, false);
  const streamError = await (async () => {
    for await (const tick of page.window.dsBridge.stream('ticks', null, { signal: streamController.signal })) {
      assert.equal(tick, 0);
      streamController.abort();
    }
  })().then(() => null, (e) => e);
  assert.equal(streamError.code, 6);
});

test('a method that returns nothing resolves invoke with undefined, in one round trip or through the callback', async () => {
  const page = await readyPage();
  page.native.sync.reset = () => NOTHING;
  page.native.async.save = (data, reply) => reply.nothing();
  assert.equal(await page.window.dsBridge.invoke('reset'), undefined);
  assert.equal(await page.window.dsBridge.invoke('save', 1), undefined);
  page.native.answersInline = false; // the synchronous fallback reads the mark too
  assert.equal(await page.window.dsBridge.invoke('reset'), undefined);
  const results = [];
  page.window.dsBridge.call('save', 1, (value) => results.push(value)); // dsbridge.js's API: ""
  await settle();
  assert.deepEqual(results, ['']);
  const seen = [];
  for await (const value of page.window.dsBridge.stream('save', 1)) seen.push(value);
  assert.deepEqual(seen, []);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('Swift withdrawing its call aborts the responder\'s signal and drops the handler\'s later answers', async () => {
  const { window, native } = await readyPage();
  let responder = null;
  window.dsBridge.registerAsyn('slow', (n, respond) => { responder = respond; });
  window.WebViewJavascriptBridge.registerHandler('wvjbSlow', (data, respond) => { responder.wvjb = respond; });
  native.callPage('slow', [1], 7);
  native.callPage('wvjbSlow', [1], 8);
  await settle();
  assert.equal(responder.signal.aborted, false);
  native.cancelPage(7);
  native.cancelPage(8);
  assert.equal(responder.signal.aborted, true);
  assert.equal(responder.signal.reason.code, 6);
  assert.equal(responder.wvjb.signal.aborted, true);
  responder('too late');
  responder.wvjb('too late');
  await settle();
  assert.deepEqual(native.returns, []);
  native.cancelPage(99); // a call the page does not have: nothing happens
});

test('a durable Swift call\'s id reaches the responder of an asynchronous or WVJB handler, in either dialect, and no other call\'s', async () => {
  for (const dialect of ['keystone', 'dsbridge']) {
    const { window, native } = await readyPage();
    native.runtime = dialect; // 'dsbridge': rendered as native renders for a page it does not know runs this runtime
    const seen = [];
    window.dsBridge.registerAsyn('save', (draft, respond) => { seen.push(respond.durable); respond('saved ' + draft); });
    window.WebViewJavascriptBridge.registerHandler('wvjbSave', (data, respond) => { seen.push(respond.durable); respond(data); });
    native.callPage('save', ['a'], 1, 'f00d');
    native.callPage('wvjbSave', ['b'], 2, 'beef');
    native.callPage('save', ['c'], 3);
    native.callPage('save', ['d'], 4, { not: 'a string' });
    await settle();
    // A WVJB handler runs a turn later, as WVJB's own script runs it.
    assert.deepEqual(seen.slice().sort(), ['beef', 'f00d', undefined, undefined]);
    assert.deepEqual(plain(native.returns).map((r) => r.data).sort(), ['b', 'saved a', 'saved c', 'saved d']);
  }
});

test('_handleMessageFromNative reads what it is handed with care: nothing that is not a call throws', async () => {
  const { window, native } = await readyPage();
  window.dsBridge.register('count', function () { return arguments.length; });
  for (const info of [undefined, null, 7, {}, { method: 'count' }, { method: 'count', callbackId: '1', data: '[]' }]) {
    window._handleMessageFromNative(info);
  }
  window._handleMessageFromNative({ method: 'count', callbackId: 3, data: 'not json' });
  window._handleMessageFromNative({ method: 'count', callbackId: 4, data: '{"not":"an array"}' });
  window._handleMessageFromNative({ method: 'count', callbackId: 5, data: '[1,2]' });
  await settle();
  assert.deepEqual(plain(native.returns), [
    { id: 3, data: 0, complete: true },
    { id: 4, data: 0, complete: true },
    { id: 5, data: 2, complete: true },
  ]);
});

test('a durable invoke sends its key, never asks inline nor for parts, and acknowledges its outcome once it has it', async () => {
  const page = await readyPage();
  page.native.async.pay = (amount, reply) => reply.result('paid ' + amount);
  page.native.async.refuse = (_, reply) => reply.fail(1000, 'declined');
  assert.equal(await page.window.dsBridge.invoke('pay', 5, { durable: 'order-7' }), 'paid 5');
  const call = page.native.prompts.find((p) => p.method === 'pay');
  assert.deepEqual([call.arg._dsdurable, call.arg._dsinline, call.arg._dsparts], ['order-7', undefined, undefined]);
  await settle();
  assert.deepEqual(page.native.acknowledged, ['order-7']);
  // A failure is an outcome too: taken, and acknowledged.
  await assert.rejects(page.window.dsBridge.invoke('refuse', null, { durable: 'order-8' }), (error) => error.code === 1000);
  await settle();
  assert.deepEqual(page.native.acknowledged, ['order-7', 'order-8']);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('durable: true sends a new key of 128 random bits each time', async () => {
  const page = await readyPage();
  page.native.async.pay = (amount, reply) => reply.result(amount);
  await page.window.dsBridge.invoke('pay', 1, { durable: true });
  await page.window.dsBridge.invoke('pay', 2, { durable: true });
  const keys = page.native.prompts.filter((p) => p.method === 'pay').map((p) => p.arg._dsdurable);
  assert.equal(keys.length, 2);
  assert.ok(keys.every((key) => /^[0-9a-f]{32}$/.test(key)));
  assert.notEqual(keys[0], keys[1]);
});

test('recovered resolves with the durable calls native hands over, and acknowledges each', async () => {
  const page = await readyPage();
  page.native.recoverable = [{ key: 'a', method: 'shop.pay', value: 1 }, { key: 'b', method: 'shop.save', error: { code: 5, message: 'disk full' } }];
  assert.deepEqual(plain(await page.window.dsBridge.recovered()), page.native.recoverable);
  await settle();
  assert.deepEqual(page.native.acknowledged, ['a', 'b']);
});

test('dsBridge.mark sends a span\'s begin and end, once, to a native that traces', async () => {
  const page = makePage({ traces: true });
  const held = page.window.dsBridge.mark('before the announcement');
  await settle();
  const span = page.window.dsBridge.mark('render ' + 'x'.repeat(200));
  span.end();
  span.end();
  held.end();
  await settle();
  const marks = page.native.marks;
  assert.deepEqual(marks.map((m) => [m.step, m.span]), [['begin', 1], ['begin', 2], ['end', 2], ['end', 1]]);
  assert.equal(marks[0].name, 'before the announcement');
  assert.equal(marks[1].name.length, 85);
  assert.ok(marks.every((m) => typeof m.ago === 'number' && m.ago >= 0));
});

test('dsBridge.mark sends nothing to a native that does not trace', async () => {
  const page = makePage();
  page.window.dsBridge.mark('early').end();
  await settle();
  page.window.dsBridge.mark('late').end();
  await settle();
  assert.deepEqual(page.native.marks, []);
  assert.equal(page.native.prompts.filter((p) => p.method === '_dsb.mark').length, 0);
});
