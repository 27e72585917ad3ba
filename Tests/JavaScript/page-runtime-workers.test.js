// page-runtime-workers.test.js — dsBridge.worker: a dedicated worker whose dsBridge calls native
// through the document that started it, with an engine's workers stood in for by vm contexts.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const vm = require('node:vm');
const { makePage, settle, plain } = require('./support/page.js');

/** Gives `page` what the runtime needs to start a worker (`URL.createObjectURL`, `Blob`, `Worker`),
 *  each worker a vm context of its own whose `importScripts(url)` runs `scripts[url]`. Messages cross
 *  as an engine's do: cloned, their transferred buffers moved, a turn later. */
function withWorkers(page, scripts) {
  const { window } = page;
  const blobs = new Map();
  const workers = [];
  let lastBlob = 0;
  window.location = { href: 'https://app.example/index.html' };
  window.URL = class extends URL {
    static createObjectURL(blob) { const url = `blob:https://app.example/${++lastBlob}`; blobs.set(url, blob); return url; }
    static revokeObjectURL(url) { blobs.delete(url); }
  };
  function deliver(target, message, transfer) {
    const data = structuredClone(message, { transfer });
    setImmediate(() => target.dispatchEvent(Object.assign(new Event('message'), { data })));
  }
  window.Worker = class Worker extends EventTarget {
    constructor(url, options) {
      super();
      this.ended = false;
      // The worker's global is its `self`, as an engine's is: it posts, listens and imports.
      const scope = new EventTarget();
      const context = vm.createContext({ console, setTimeout, setImmediate, AbortController, Event });
      const global = vm.runInContext('this', context);
      global.self = global;
      global.postMessage = (message, transfer = []) => { if (!this.ended) deliver(this, message, transfer); };
      global.addEventListener = (type, listener) => scope.addEventListener(type, listener);
      global.importScripts = (address) => vm.runInContext(scripts[address], context);
      this.scope = scope;
      this.context = context;
      this.options = options;
      workers.push(this);
      blobs.get(url).text().then((source) => vm.runInContext(source, context));
    }
    postMessage(message, transfer = []) { if (!this.ended) deliver(this.scope, message, transfer); }
    terminate() { this.ended = true; }
  };
  return { workers, blobs };
}

async function readyPage(options) {
  const page = makePage(options);
  await settle();
  return page;
}

/** Runs `body` (a worker script) in a new worker of `page` and resolves with what it posts. */
async function inWorker(page, body) {
  const answers = [];
  const { workers } = withWorkers(page, { 'https://app.example/worker.js': body });
  const worker = page.window.dsBridge.worker('worker.js');
  worker.addEventListener('message', (event) => answers.push(event.data));
  return { worker, answers, scope: () => workers[0] };
}

async function until(condition) {
  for (let turn = 0; turn < 200 && !condition(); turn++) await settle();
}

test('a worker\'s dsBridge.invoke is made by its document, and its answer comes back to the worker', async () => {
  const page = await readyPage();
  page.native.async.slowAdd = (pair, reply) => reply.result(pair[0] + pair[1]);
  const { answers } = await inWorker(page, "dsBridge.invoke('slowAdd', [2, 3]).then((sum) => postMessage({ sum }));");
  await until(() => answers.length);
  assert.deepEqual(answers, [{ sum: 5 }]);
  assert.deepEqual(page.native.prompts.filter((p) => p.method === 'slowAdd').map((p) => plain(p.arg.data)), [[2, 3]]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('the worker\'s own messages still reach the page, and the runtime\'s never do', async () => {
  const page = await readyPage();
  page.native.async.echo = (value, reply) => reply.result(value);
  const { answers } = await inWorker(page, "postMessage('hello'); dsBridge.invoke('echo', 1).then((v) => postMessage(v));");
  await until(() => answers.length >= 2);
  assert.deepEqual(answers, ['hello', 1]);
});

test('a failure reaches the worker with its code and message', async () => {
  const page = await readyPage();
  page.native.async.fails = (value, reply) => reply.fail(1002, 'no such photo');
  const { answers } = await inWorker(page, "dsBridge.invoke('fails', 1).catch((e) => postMessage({ code: e.code, message: e.message }));");
  await until(() => answers.length);
  assert.deepEqual(answers, [{ code: 1002, message: 'no such photo' }]);
});

test('a stream from a worker yields every result, then ends', async () => {
  const page = await readyPage();
  page.native.async.countdown = (n, reply) => {
    for (let i = n; i >= 0; i--) reply.result(i, false);
    reply.end();
  };
  const { answers } = await inWorker(page, `(async () => {
    const seen = [];
    for await (const n of dsBridge.stream('countdown', 3)) seen.push(n);
    postMessage(seen);
  })();`);
  await until(() => answers.length);
  assert.deepEqual(answers, [[3, 2, 1, 0]]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('bytes cross both ways, moved rather than copied from the worker', async () => {
  const page = await readyPage({ byteChannel: true });
  page.native.async.double = (bytes, reply) => reply.bytes(new Uint8Array(bytes));
  const { answers } = await inWorker(page, `const bytes = new Uint8Array([1, 2, 250]);
    dsBridge.invoke('double', bytes).then((back) => postMessage({ back: Array.from(back), isBytes: back.constructor.name === 'Uint8Array', left: bytes.byteLength }));`);
  await until(() => answers.length);
  assert.deepEqual(answers, [{ back: [1, 2, 250], isBytes: true, left: 0 }]);
});

test('aborting a worker\'s call cancels it in native, and the worker hears it was cancelled', async () => {
  const page = await readyPage();
  page.native.async.slow = () => {};
  const { answers } = await inWorker(page, `const controller = new AbortController();
    dsBridge.invoke('slow', 1, { signal: controller.signal }).catch((e) => postMessage({ name: e.name, code: e.code }));
    setTimeout(() => controller.abort(), 5);`);
  await until(() => answers.length);
  assert.equal(answers[0].code, 6);
  assert.equal(page.native.cancels.length, 1);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('ending the worker ends its calls, as the document\'s end would', async () => {
  const page = await readyPage();
  page.native.async.slow = () => {};
  const { worker } = await inWorker(page, "dsBridge.invoke('slow', 1);");
  await until(() => page.native.prompts.some((p) => p.method === 'slow'));
  worker.terminate();
  await settle();
  assert.equal(page.native.cancels.length, 1);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a durable call from a worker runs under its key, made by the document', async () => {
  const page = await readyPage();
  page.native.async.pay = (amount, reply) => reply.result('paid ' + amount);
  const { answers } = await inWorker(page, "dsBridge.invoke('pay', 5, { durable: 'order-7' }).then((v) => postMessage(v));");
  await until(() => answers.length);
  assert.deepEqual(answers, ['paid 5']);
  assert.deepEqual(page.native.prompts.filter((p) => p.method === 'pay').map((p) => p.arg._dsdurable), ['order-7']);
});

test('a worker cannot wait for native, and a module worker imports its script', async () => {
  const page = await readyPage();
  const { answers } = await inWorker(page, "try { dsBridge.call('add', [1, 2]); } catch (e) { postMessage(e.message); }");
  await until(() => answers.length);
  assert.match(answers[0], /cannot wait for native/);
  const { blobs } = withWorkers(page, {});
  const originalWorker = page.window.Worker;
  let source = null;
  page.window.Worker = class { constructor(url) { source = blobs.get(url); } addEventListener() {} };
  page.window.dsBridge.worker('lib/task.mjs', { type: 'module' });
  assert.match(await source.text(), /await import\("https:\/\/app\.example\/lib\/task\.mjs"\);/);
  page.window.Worker = originalWorker;
});
