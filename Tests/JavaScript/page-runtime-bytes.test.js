// page-runtime-bytes.test.js — bytes as bytes in Keystone's runtime: a Data argument announced and
// posted to its ticket, a Data result fetched, base64 where there is no byte channel.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { makePage, settle, plain } = require('./support/page.js');

async function readyPage() {
  const page = makePage();
  await settle();
  assert.equal(page.native.runtime, 'keystone');
  page.native.byteChannel = true;
  return page;
}

const inPage = (page, source) => page.evaluate(source);

test('bytes are announced by their size, then posted to the ticket native answers with', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  const bytes = inPage(page, 'new Uint8Array([1, 2, 3, 250])');
  assert.equal(await page.window.dsBridge.invoke('count', bytes), 4);
  const call = page.native.prompts.find((p) => p.method === 'count');
  assert.equal(call.arg.data, null);
  assert.equal(call.arg._dsbytes, 4);
  assert.deepEqual([...page.native.posted], [1, 2, 3, 250]);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('every kind of bytes goes as its bytes', async () => {
  const page = await readyPage();
  page.native.async.echoBytes = (bytes, reply) => reply.result([...bytes]);
  const kinds = {
    'an ArrayBuffer': 'new Uint8Array([7, 8]).buffer',
    'a view into a larger buffer': 'new Uint8Array([0, 7, 8, 0]).subarray(1, 3)',
    'a DataView': 'new DataView(new Uint8Array([7, 8]).buffer)',
    'a 16-bit array': 'new Uint16Array([0x0807])',
  };
  for (const [kind, source] of Object.entries(kinds)) {
    assert.deepEqual(plain(await page.window.dsBridge.invoke('echoBytes', inPage(page, source))), [7, 8], kind);
  }
  assert.deepEqual(plain(await page.window.dsBridge.invoke('echoBytes', new Blob([new Uint8Array([7, 8])]))), [7, 8], 'a Blob');
});

test('a Data result is fetched from the byte channel and resolves a Uint8Array', async () => {
  const page = await readyPage();
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count).map((_, i) => i % 251));
  const made = await page.window.dsBridge.invoke('make', 300);
  assert.equal(made.constructor.name, 'Uint8Array');
  assert.equal(made.length, 300);
  assert.equal(made[299], 299 % 251);
  assert.equal(page.native.prompts.find((p) => p.method === 'make').arg._dsbytes, true);
  assert.deepEqual(page.native.downloads, {}, 'fetched once');
});

test('a stream keeps its order when a result that is bytes comes before one that is not', async () => {
  const page = await readyPage();
  page.native.async.mixed = (_, reply) => {
    reply.bytes(new Uint8Array([1, 2]), false);
    reply.result('after', true);
  };
  const seen = [];
  for await (const value of page.window.dsBridge.stream('mixed')) seen.push(typeof value === 'string' ? value : [...value]);
  assert.deepEqual(seen, [[1, 2], 'after']);
});

test('without a byte channel, bytes go as base64, as a Data in JSON', async () => {
  const page = await readyPage();
  page.native.byteChannel = false;
  page.native.async.count = (text, reply) => reply.result(Buffer.from(text, 'base64').length);
  assert.equal(await page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(5)')), 5);
  const calls = page.native.prompts.filter((p) => p.method === 'count');
  assert.deepEqual(calls.map((c) => c.arg._dsbytes), [5, true]);
  assert.equal(calls[1].arg.data, 'AAAAAAA=');
});

test('bytes refused for want of a channel go again as base64 under a callback of their own: native\'s release of the refused call ends nothing', async () => {
  const page = await readyPage();
  page.native.byteChannel = false;
  let answer;
  page.native.async.count = (text, reply) => { answer = () => reply.result(Buffer.from(text, 'base64').length); };
  // As Keystone refuses a call it cannot take: code 3, and a release of its callback, delivered later.
  const refuse = page.native.upload.bind(page.native);
  page.native.upload = function (method, arg) {
    this.send([{ callback: arg._dscbstub, release: true }]);
    return refuse(method, arg);
  };
  const call = page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(5)'));
  await settle();
  await settle();
  const calls = page.native.prompts.filter((p) => p.method === 'count');
  assert.equal(calls.length, 2);
  assert.notEqual(calls[1].arg._dscbstub, calls[0].arg._dscbstub);
  answer();
  assert.equal(await call, 5);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a channel the page cannot reach withdraws the ticketed call and sends base64', async () => {
  const page = await readyPage();
  page.native.async.count = (value, reply) => reply.result(typeof value === 'string' ? 'base64' : 'bytes');
  page.native.fetch = () => Promise.reject(new TypeError('refused by the content security policy'));
  assert.equal(await page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(2)')), 'base64');
  assert.equal(page.native.cancels.length, 1);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('dsBridge.call keeps dsbridge.js behaviour: no bytes asked for', async () => {
  const page = await readyPage();
  page.native.async.make = (count, reply) => reply.result('AAEC');
  await new Promise((resolve) => page.window.dsBridge.call('make', 3, resolve));
  assert.equal(page.native.prompts.find((p) => p.method === 'make').arg._dsbytes, undefined);
});

/** A ReadableStream of `chunks`, noting whether it was cancelled. */
function streamOf(chunks) {
  const state = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream({
    pull(controller) {
      if (state.pulled < chunks.length) controller.enqueue(chunks[state.pulled++]);
      else controller.close();
    },
    cancel() { state.cancelled = true; },
  });
  return { stream, state };
}

test('a ReadableStream goes piece by piece, each to the ticket the answer to the one before carried', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  const big = new Uint8Array((2 << 20) + 5).map((_, i) => i % 251);
  const { stream } = streamOf([new Uint8Array(0), new Uint8Array([1, 2, 3]), new Uint8Array(0), big]);
  const progress = [];
  const count = await page.window.dsBridge.invoke('count', stream, { onProgress: (sent, total) => progress.push([sent, total]) });
  assert.equal(count, 3 + big.length);
  const call = page.native.prompts.find((p) => p.method === 'count');
  assert.equal(call.arg._dsbytes, 'stream');
  assert.equal(call.arg.data, null);
  assert.deepEqual(page.native.pieces, [3, 1 << 20, 1 << 20, 5], 'a chunk over 1 MiB goes in pieces of 1 MiB; an empty one not at all');
  assert.equal(page.native.posted[3 + 300], 300 % 251, 'in order');
  assert.deepEqual(progress.map((p) => p[0]), [3, 3 + (1 << 20), 3 + (2 << 20), 3 + big.length]);
  assert.equal(progress[0][1], undefined, 'a stream has no known total');
  assert.deepEqual(page.liveCallbacks(), []);
});

test('when native stops reading, the page stops sending and cancels its stream', async () => {
  const page = await readyPage();
  page.native.stopAfter = 1;
  page.native.async.first = (bytes, reply) => reply.result(bytes.length);
  const { stream, state } = streamOf([new Uint8Array(4), new Uint8Array(5), new Uint8Array(6)]);
  assert.equal(await page.window.dsBridge.invoke('first', stream), 4);
  await settle();
  assert.deepEqual(page.native.pieces, [4]);
  assert.equal(state.cancelled, true);
  assert.ok(state.pulled < 3, 'the rest was never read');
});

test('a piece refused for its ticket (native stopped reading as it was posted) ends the sending, and the callback answers the call', async () => {
  const page = await readyPage();
  page.native.async.first = () => {};
  const { stream, state } = streamOf([new Uint8Array(4), new Uint8Array(5), new Uint8Array(6)]);
  // Native takes the first piece, its method returns, and the ticket it handed out is withdrawn.
  const realPiece = page.native.piece.bind(page.native);
  let stub = null;
  page.native.piece = function (ticket, bytes) {
    stub = ticket.stub;
    const answer = realPiece(ticket, bytes);
    this.tickets = [];
    return answer;
  };
  const call = page.window.dsBridge.invoke('first', stream);
  await settle();
  assert.ok(stub, 'the first piece arrived');
  page.native.reply(stub).result(4);
  assert.equal(await call, 4);
  await settle();
  assert.equal(state.cancelled, true);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('a chunk that is not bytes fails the call, and native is told', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  const { stream } = streamOf(['text']);
  await assert.rejects(page.window.dsBridge.invoke('count', stream), (error) => error.code === 2);
  assert.equal(page.native.cancels.length, 1);
  assert.deepEqual(page.liveCallbacks(), []);
});

test('without a byte channel, a stream is gathered and goes as base64', async () => {
  const page = await readyPage();
  page.native.byteChannel = false;
  page.native.async.count = (text, reply) => reply.result(Buffer.from(text, 'base64').length);
  const { stream } = streamOf([new Uint8Array(2), new Uint8Array(3)]);
  assert.equal(await page.window.dsBridge.invoke('count', stream), 5);
  assert.deepEqual(page.native.prompts.filter((p) => p.method === 'count').map((c) => c.arg._dsbytes), ['stream', 5, true]);
});

test('onProgress hears bytes sent at once, and a result as it is fetched', async () => {
  const page = await readyPage();
  page.native.async.count = (bytes, reply) => reply.result(bytes.length);
  page.native.async.make = (count, reply) => reply.bytes(new Uint8Array(count));
  const sent = [];
  await page.window.dsBridge.invoke('count', inPage(page, 'new Uint8Array(7)'), { onProgress: (moved, total) => sent.push([moved, total]) });
  assert.deepEqual(sent, [[7, 7]]);
  const origin = page.native.fetch.bind(page.native);
  page.native.fetch = (url, init) => origin(url, init).then((response) => {
    if (!response.arrayBuffer) return response;
    return response.arrayBuffer().then((buffer) => ({
      ok: true, status: 200,
      body: new ReadableStream({ start(c) { c.enqueue(new Uint8Array(buffer, 0, 4)); c.enqueue(new Uint8Array(buffer, 4)); c.close(); } }),
    }));
  });
  const fetched = [];
  const made = await page.window.dsBridge.invoke('make', 10, { onProgress: (moved, total) => fetched.push([moved, total]) });
  assert.equal(made.length, 10);
  assert.deepEqual(fetched, [[4, 10], [10, 10]]);
});

test('a page handler Swift calls with Data fetches it first and gets a Uint8Array, in order with the next call', async () => {
  const page = await readyPage();
  const seen = [];
  page.window.dsBridge.register('show', (bytes, n) => { seen.push([bytes.constructor.name, [...bytes], n]); return 'shown'; });
  page.window.dsBridge.register('after', () => { seen.push('after'); return 'after'; });
  page.native.downloads['keystone://transfer/arg1'] = new Uint8Array([4, 5, 6]);
  page.evaluate(`window._keystone.deliver(${JSON.stringify([
    { method: 'show', callbackId: 1, args: [null, 3], bytes: [{ index: 0, source: 'keystone://transfer/arg1', size: 3 }] },
    { method: 'after', callbackId: 2, args: [] },
  ])})`);
  await settle();
  await settle();
  assert.deepEqual(seen, [['Uint8Array', [4, 5, 6], 3], 'after']);
  assert.deepEqual(page.native.returns.map((r) => r.data), ['shown', 'after']);
  assert.deepEqual(page.native.downloads, {}, 'fetched once');
});

test('a call of a handler the page lacks fetches nothing, and bytes that cannot be fetched fail the call', async () => {
  const page = await readyPage();
  page.native.downloads['keystone://transfer/arg1'] = new Uint8Array([1]);
  page.window.dsBridge.register('show', () => 'never');
  page.evaluate(`window._keystone.deliver(${JSON.stringify([
    { method: 'missing', callbackId: 1, args: [null], bytes: [{ index: 0, source: 'keystone://transfer/arg1', size: 1 }] },
    { method: 'show', callbackId: 2, args: [null], bytes: [{ index: 0, source: 'keystone://transfer/forged', size: 1 }] },
  ])})`);
  await settle();
  await settle();
  assert.ok(page.native.downloads['keystone://transfer/arg1'], 'never fetched');
  assert.deepEqual(page.native.returns.map((r) => r.error && r.error.code), [1, 11]);
});
