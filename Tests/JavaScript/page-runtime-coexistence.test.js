// page-runtime-coexistence.test.js — keystone-bridge.js beside a page's own dsbridge.js, or twice.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makePage, settle } = require('./support/page.js');

test('loaded twice, the second copy changes nothing', async () => {
  const page = makePage();
  const bridge = page.window.dsBridge;
  bridge.register('kept', () => 'still here');
  page.loadRuntime();
  assert.equal(page.window.dsBridge, bridge);
  page.native.callPage('kept', [], 1);
  await settle();
  assert.deepEqual(page.native.returns, [{ id: 1, data: 'still here', complete: true }]);
  assert.equal(page.native.prompts.filter((p) => p.method === '_dsb.dsinit').length, 1);
});

test('dsbridge.js loaded after it does nothing; calls and handlers keep working', async () => {
  const page = makePage({ standin: 'after' });
  const { window, native } = page;
  assert.equal(window.dsBridge.isStandin, undefined);
  assert.equal(typeof window.dsBridge.invoke, 'function');
  await settle();
  assert.equal(native.runtime, 'keystone');
  native.sync.add = (p) => p[0] + p[1];
  native.async.later = (x, reply) => reply.result(x);
  assert.equal(window.dsBridge.call('add', [1, 2]), 3);
  assert.equal(await window.dsBridge.invoke('later', 'ok'), 'ok');
  // A page that bundled dsbridge.js calls through its own copy: its plain callbacks still work.
  let viaStandin;
  window.dsbridgeStandin.call('later', 'plain', (v) => { viaStandin = v; });
  window.dsbridgeStandin.register('fromStandin', () => 'registered by the other copy');
  native.callPage('fromStandin', [], 4);
  await settle();
  assert.equal(viaStandin, 'plain');
  assert.deepEqual(native.returns.at(-1), { id: 4, data: 'registered by the other copy', complete: true });
  assert.deepEqual(page.liveCallbacks(), []);
});

test('dsbridge.js loaded before it keeps its handlers; the page gets the extended API', async () => {
  const page = makePage({ runtime: false, standin: 'before' });
  const { window, native } = page;
  window.dsBridge.register('early', () => 'registered before the runtime');
  window.dsBridge.registerAsyn('ns', { tick: (respond) => respond('tock') });
  window.dsBridge.register('plain.ns', { deep: () => 'namespaced' });
  page.loadRuntime();
  assert.equal(typeof window.dsBridge.invoke, 'function');
  await settle();
  // Both scripts announce themselves; the runtime's announcement is the one that counts.
  const inits = native.prompts.filter((p) => p.method === '_dsb.dsinit').map((p) => p.arg.data);
  assert.deepEqual(inits.filter((d) => d && d.runtime === 'keystone').length, 1);
  assert.equal(native.runtime, 'keystone');
  native.callPage('early', [], 1);
  native.callPage('ns.tick', [], 2);
  native.callPage('plain.ns.deep', [], 3);
  native.async.later = (x, reply) => reply.result(x * 2);
  assert.equal(await window.dsBridge.invoke('later', 4), 8);
  await settle();
  assert.deepEqual(native.returns.map((r) => r.data), ['registered before the runtime', 'tock', 'namespaced']);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a page with only dsbridge.js is served with plain scripts', async () => {
  const page = makePage({ runtime: false, standin: 'before' });
  const { window, native } = page;
  await settle();
  assert.equal(native.runtime, 'dsbridge');
  native.async.later = (x, reply) => reply.result(x + 1);
  let result;
  window.dsBridge.call('later', 1, (v) => { result = v; });
  await settle();
  assert.equal(result, 2);
  assert.deepEqual(page.liveCallbacks(), []);
});
