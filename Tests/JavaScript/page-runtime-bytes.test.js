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
