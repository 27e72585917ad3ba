// page-runtime-client.test.js — dsBridge.native, the typed client: a method's path is its name, a
// call is invoke unless the page iterates it at once, when it is stream.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makePage, settle } = require('./support/page.js');

async function readyPage() {
  const page = makePage();
  await settle();
  assert.equal(page.native.runtime, 'keystone');
  return page;
}

test('a path is the method name, in any namespace, and a call resolves as invoke does', async () => {
  const page = await readyPage();
  page.native.async['math.basic.ops.mul'] = (pair, reply) => reply.result(pair[0] * pair[1]);
  page.native.sync.echo = (value) => value;
  assert.equal(await page.window.dsBridge.native.math.basic.ops.mul([6, 7]), 42);
  assert.equal(await page.window.dsBridge.native.echo('hi'), 'hi');
  assert.deepEqual(page.native.prompts.filter((p) => p.method !== '_dsb.dsinit').map((p) => p.method), ['math.basic.ops.mul', 'echo']);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a call iterated at once is a stream of every result', async () => {
  const page = await readyPage();
  page.native.async['stream.count'] = (n, reply) => {
    for (let i = 0; i < n; i++) reply.result(i, false);
    reply.end();
  };
  const seen = [];
  for await (const value of page.window.dsBridge.native.stream.count(3)) seen.push(value);
  assert.deepEqual(seen, [0, 1, 2]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a call whose next result is asked for at once is a stream too', async () => {
  const page = await readyPage();
  page.native.async['stream.count'] = (n, reply) => {
    for (let i = 0; i < n; i++) reply.result(i, false);
    reply.end();
  };
  const results = page.window.dsBridge.native.stream.count(2);
  const next = async () => ({ ...(await results.next()) });  // a plain object of this realm
  assert.deepEqual(await next(), { value: 0, done: false });
  assert.deepEqual(await next(), { value: 1, done: false });
  assert.deepEqual(await next(), { value: undefined, done: true });
});

test('a call nobody awaits is made all the same, once, and its failure is no unhandled rejection', async () => {
  const page = await readyPage();
  let calls = 0;
  page.native.async['log.write'] = (text, reply) => { calls += 1; reply.fail(5, 'disk full'); };
  page.window.dsBridge.native.log.write('x');
  await settle();
  await settle();
  assert.equal(calls, 1);
});

test('a client is never taken for a Promise, and options reach the call', async () => {
  const page = await readyPage();
  assert.equal(page.window.dsBridge.native.math.then, undefined);
  page.native.async.slow = () => {};  // never answers
  const controller = new page.window.AbortController();
  const pending = page.window.dsBridge.native.slow(1, { signal: controller.signal });
  await settle();  // the call has gone out
  controller.abort();
  await assert.rejects(pending, (error) => error.code === 6);
  assert.equal(page.native.cancels.length, 1);
});

test('iterating a call after its turn is refused, coded', async () => {
  const page = await readyPage();
  page.native.async.one = (_, reply) => reply.result(1);
  const handle = page.window.dsBridge.native.one();
  assert.equal(await handle, 1);
  assert.throws(() => handle[Symbol.asyncIterator](), (error) => error.code === 3);
});

test('printing, converting or awaiting a namespace calls nothing native, and a page that replaces invoke does not reach the client', async () => {
  const page = await readyPage();
  const ns = page.window.dsBridge.native.account;
  assert.equal(String(ns), 'dsBridge.native.account');
  assert.equal(`${page.window.dsBridge.native}`, 'dsBridge.native');
  assert.equal(JSON.stringify({ ns }), '{}');
  assert.equal(ns.then, undefined);
  assert.equal(ns.valueOf, undefined);
  assert.equal(ns.constructor, undefined);
  const before = page.native.prompts.length;
  await settle();
  assert.equal(page.native.prompts.length, before);  // no call went out
  page.native.sync.echo = (value) => value;
  page.window.dsBridge.invoke = () => Promise.resolve('hijacked');
  assert.equal(await page.window.dsBridge.native.echo('hi'), 'hi');
});

test('a document restored from the back/forward cache fails its calls still open, coded, and announces itself again', async () => {
  const page = makePage({ events: true });
  await settle();
  page.native.async['slow.never'] = () => {};  // native never answers: it ended the calls when the page left
  const call = page.window.dsBridge.invoke('slow.never', 1);
  const dsbridgeStyle = new Promise((resolve) => page.window.dsBridge.call('slow.never', 2, (value, error) => resolve(error)));
  await settle();
  const announced = page.native.prompts.filter((p) => p.method === '_dsb.dsinit').length;
  page.show(true);
  await assert.rejects(call, (error) => error.code === 7);
  assert.equal((await dsbridgeStyle).code, 7);
  assert.deepEqual(page.liveCallbacks(), []);
  await settle();
  assert.equal(page.native.prompts.filter((p) => p.method === '_dsb.dsinit').length, announced + 1);
  page.show(false);  // a first showing changes nothing
  await settle();
  assert.equal(page.native.prompts.filter((p) => p.method === '_dsb.dsinit').length, announced + 1);
});
